import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import { Clock } from '../../../common/clock';
import { sha256Hex } from '../../../common/crypto/hash';
import { AppConfig } from '../../../config/app-config';
import { loadJose } from '../../signing-keys/jose';
import { OAuthError } from '../protocol/oauth-error';
import { spendId } from '../protocol/spent-ids';
import { resourceDpopError } from './dpop-challenge';
import { DpopNonces } from './dpop-nonces';
import { DpopProofRefused, verifyDpopProof, type VerifiedProof } from './dpop-proof';

/** Why a proof failed, before it is shaped as the endpoint's answer. */
type ProofFailure = { error: 'invalid_dpop_proof' | 'use_dpop_nonce'; description: string };

/**
 * A proof checked at a resource, its `jti` not spent yet: the resource spends it once the access
 * token is found and bound to `jkt`, so a request without a real token writes nothing.
 */
export interface ResourceProof {
  jkt: string;
  /** Records the proof's `jti`; a replay is the resource's 401 `invalid_dpop_proof`. */
  spend(): Promise<void>;
}

const REPLAYED = 'The DPoP proof was already used';

/** The key a token request proved: its thumbprint, and the algorithm its proof was signed with. */
export interface ProvenKey {
  jkt: string;
  alg: string;
}

/**
 * DPoP proofs (RFC 9449; docs/oauth.md, "Sender-constrained tokens (DPoP)") at the endpoints that
 * take them: the token endpoint, which binds the tokens it issues to the proof's key, and the
 * resources (userinfo, user emails), which check that the proof's key is the one the access token
 * is bound to. Every check of section 4.3: one `DPoP` header, the proof itself
 * (dpop-proof.ts), the server's nonce when DPOP_NONCE_REQUIRED (dpop-nonces.ts) and the single
 * use of its `jti`, per key, in PostgreSQL (protocol/spent-ids.ts).
 */
@Injectable()
export class DpopService {
  private readonly nonces: DpopNonces;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.nonces = new DpopNonces(config.sessionSecret);
  }

  /** Whether the request carries a `DPoP` header at all. */
  sent(req: Request): boolean {
    return req.headers.dpop !== undefined;
  }

  /**
   * The nonce to send in `DPoP-Nonce` with an answer to a request that carried a proof (so the
   * client's next proof has a fresh one), or undefined when nonces are not required.
   */
  nonce(): string | undefined {
    return this.config.dpopNonceRequired ? this.nonces.current(this.clock.now()) : undefined;
  }

  /**
   * The key a token request's proof proved (its `jti` spent), or null when the request has no
   * `DPoP` header; a failing proof is the endpoint's 400 `invalid_dpop_proof` or
   * `use_dpop_nonce` (RFC 9449 sections 5 and 8), with a nonce.
   */
  async atTokenEndpoint(req: Request): Promise<ProvenKey | null> {
    if (!this.sent(req)) return null;
    const checked = await this.check(req, undefined);
    const failure = 'jkt' in checked && !(await this.spend(checked)) ? refused(REPLAYED) : checked;
    if ('jkt' in failure) return { jkt: failure.jkt, alg: failure.alg };
    throw new OAuthError(failure.error, failure.description, undefined, {
      dpopNonce: this.nonce(),
    });
  }

  /**
   * The thumbprint of the key of the proof sent with `accessToken` to a resource (RFC 9449
   * section 7.1: `ath` required), its `jti` to be spent by the resource (ResourceProof); a
   * missing or failing proof is the resource's 401 with the `DPoP` challenge.
   */
  async atResource(req: Request, accessToken: string): Promise<ResourceProof> {
    if (!this.sent(req)) {
      throw resourceDpopError('invalid_dpop_proof', 'A DPoP proof is required', this.nonce());
    }
    const checked = await this.check(req, accessToken);
    if (!('jkt' in checked)) {
      throw resourceDpopError(checked.error, checked.description, this.nonce());
    }
    return {
      jkt: checked.jkt,
      spend: async () => {
        if (await this.spend(checked)) return;
        throw resourceDpopError('invalid_dpop_proof', REPLAYED, this.nonce());
      },
    };
  }

  /** Every check of the proof but its single use (no state read or written). */
  private async check(
    req: Request,
    accessToken: string | undefined,
  ): Promise<VerifiedProof | ProofFailure> {
    const headers = req.headersDistinct.dpop ?? [];
    if (headers.length !== 1) return refused('Send exactly one DPoP header');
    const now = this.clock.now();
    let proof: VerifiedProof;
    try {
      const url = `${this.config.publicBaseUrl}${req.originalUrl.split('?')[0]}`;
      proof = await verifyDpopProof(await loadJose(), headers[0], {
        method: req.method,
        url,
        accessToken,
        now,
      });
    } catch (error) {
      if (error instanceof DpopProofRefused) return refused(error.message);
      throw error;
    }
    if (this.config.dpopNonceRequired) {
      if (proof.nonce === undefined || !this.nonces.accepts(proof.nonce, now)) {
        return { error: 'use_dpop_nonce', description: 'Use the DPoP nonce the server provides' };
      }
    }
    return proof;
  }

  /** Spends the proof's `jti` for its key, on every instance: false for a replay. */
  private spend(proof: VerifiedProof): Promise<boolean> {
    const id = sha256Hex(`${proof.jkt}\n${proof.jti}`);
    const now = this.clock.now();
    return spendId(this.dataSource, 'oauth_dpop_proof_jtis', id, proof.replayableUntil, now);
  }
}

function refused(description: string): ProofFailure {
  return { error: 'invalid_dpop_proof', description };
}
