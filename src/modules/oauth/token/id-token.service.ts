import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Clock } from '../../../common/clock';
import {
  DEFAULT_ID_TOKEN_SIGNING_ALG,
  type IdTokenSigningAlg,
} from '../../../common/crypto/signing-algs';
import { AppConfig } from '../../../config/app-config';
import { issuerUrl, type IssuerPath } from '../../signing-keys/issuers';
import { SigningKeysService } from '../../signing-keys/signing-keys.service';
import type { SessionAuthMethod } from '../../sessions/oauth-session.entity';
import { AMR_OF, isOpenId, standardClaims, type ClaimSource } from '../protocol/oidc-claims';
import type { TokenResponse } from './token-issuer';

/** Whose id_token: the grant's user and client, and the code that started its family. */
export interface IdTokenSubject {
  userId: string;
  applicationId: number;
  codeId: string | null;
  /** The code exchange repeats the code's nonce; a refresh never does (OIDC Core 12.2). */
  withNonce: boolean;
}

interface ClaimRow extends ClaimSource {
  client_id: string;
  nonce: string | null;
  auth_time: Date | null;
  auth_method: SessionAuthMethod | null;
  acr: string | null;
  issuer_path: IssuerPath | null;
  sid: string | null;
  id_token_signed_response_alg: IdTokenSigningAlg | null;
}

// One query, run only for grants with openid: the user's claims, the audience and, from the
// family's code, the nonce, the sign-in time and method, the acr and the issuer the
// authorization was sent to, the session's sid; and the client's id_token alg.
const CLAIMS_SQL = `SELECT u.username, u.nickname, u.avatar, u.email, u.email_verified, a.client_id,
    a.id_token_signed_response_alg, c.nonce, c.auth_time, c.auth_method, c.acr, c.issuer_path, c.sid
  FROM users u JOIN applications a ON a.id = $2 LEFT JOIN oauth_codes c ON c.id = $3
  WHERE u.id = $1`;

/** The id_token of OpenID Connect token responses (OIDC Core 3.1.3.3, 3.1.3.6, 12.2). */
@Injectable()
export class IdTokenService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly signingKeys: SigningKeysService,
  ) {}

  /** The response unchanged without `openid` in its scope; otherwise with an id_token. */
  async attach(response: TokenResponse, subject: IdTokenSubject): Promise<TokenResponse> {
    if (!isOpenId(response.scope)) return response;
    const rows = await this.dataSource.query<ClaimRow[]>(CLAIMS_SQL, [
      subject.userId,
      subject.applicationId,
      subject.codeId,
    ]);
    const row = rows[0];
    if (!row) throw new Error(`No user ${subject.userId} for an id_token`);
    // The client's registered alg, and only that one (never another, never none).
    const alg = row.id_token_signed_response_alg ?? DEFAULT_ID_TOKEN_SIGNING_ALG;
    const iat = Math.floor(this.clock.now().getTime() / 1000);
    const payload = {
      // The issuer the client discovered: the one its authorization request was sent to.
      iss: issuerUrl(this.config.publicBaseUrl, row.issuer_path),
      sub: subject.userId,
      aud: row.client_id,
      exp: iat + this.config.idTokenTtlSeconds,
      iat,
      ...(row.auth_time !== null && { auth_time: Math.floor(row.auth_time.getTime() / 1000) }),
      ...(subject.withNonce && row.nonce !== null && { nonce: row.nonce }),
      ...(row.acr !== null && { acr: row.acr }),
      ...(row.auth_method !== null && { amr: [...AMR_OF[row.auth_method]] }),
      // OIDC Back-Channel Logout 1.0 section 2.1: the session the code was issued in, in every
      // id_token of its family (refreshes too), as its logout tokens name it.
      ...(row.sid !== null && { sid: row.sid }),
      at_hash: tokenHash(response.access_token, alg),
      ...standardClaims(response.scope, row),
    };
    return { ...response, id_token: await this.signingKeys.sign(payload, alg) };
  }
}

/**
 * OIDC Core 3.1.3.6 (`at_hash`; 3.3.2.11 `c_hash` alike): base64url of the left half of the hash
 * of the token's ASCII octets, with the hash of the id_token's alg: SHA-256 for RS256, PS256 and
 * ES256; SHA-512 for EdDSA, because Ed25519 hashes with SHA-512 (RFC 8032 section 5.1). OIDC
 * Core names no hash for EdDSA; this is its rule applied to Ed25519, what the OpenID Connect
 * working group agreed on and what panva's oidc-provider and openid-client (oauth4webapi)
 * compute (docs/oidc.md, "id_token").
 */
export function tokenHash(token: string, alg: IdTokenSigningAlg): string {
  const digest = createHash(alg === 'EdDSA' ? 'sha512' : 'sha256')
    .update(token, 'ascii')
    .digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}
