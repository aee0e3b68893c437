import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import {
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
} from '@simplewebauthn/server';
import { DataSource, Repository } from 'typeorm';
import { Clock } from '../../common/clock';
import { PasskeyCredential } from './passkey-credential.entity';
import { RelyingParty } from './relying-party';

// Moves the counter forward only: of two assertions carrying the same counter (a cloned
// authenticator, or one response presented twice to two instances) one wins. Authenticators
// that always send 0 stay at 0 (docs/console.md, "Counter policy").
const RECORD_USE_SQL = `
  WITH used AS (
    UPDATE passkey_credentials SET counter = $2::bigint, backed_up = $3, last_used_at = $4
     WHERE id = $1 AND (counter < $2::bigint OR (counter = 0 AND $2::bigint = 0))
    RETURNING id)
  SELECT id FROM used`;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The browser's assertion in the JSON form @simplewebauthn/browser produces, shape-checked. */
export function asAssertion(value: unknown): AuthenticationResponseJSON | null {
  if (!isObject(value) || typeof value.id !== 'string' || value.id.length > 1400) return null;
  if (!isObject(value.response)) return null;
  return value as unknown as AuthenticationResponseJSON;
}

/**
 * Verifies an assertion (W3C WebAuthn Level 3, section 7.2) against a stored passkey: the
 * challenge of its ceremony, this relying party's origin and RP id, user presence and user
 * verification, the signature with the stored public key, and a signature counter that moved
 * forward. Answers the passkey, its counter and last use recorded, or null: callers refuse
 * with their own error and never say which check failed.
 */
@Injectable()
export class PasskeyAssertions {
  private readonly logger = new Logger('Passkeys');

  constructor(
    @InjectRepository(PasskeyCredential)
    private readonly credentials: Repository<PasskeyCredential>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly rp: RelyingParty,
    private readonly clock: Clock,
  ) {}

  /**
   * `userId` null: any user's passkey (discoverable sign-in); else only that user's. A refusal's
   * log line names `requestId`, the id of the HTTP request that presented the assertion.
   */
  async verify(
    challenge: string,
    body: unknown,
    userId: string | null,
    requestId: string,
  ): Promise<PasskeyCredential | null> {
    const response = asAssertion(body);
    if (!response) return this.refuse('malformed assertion', requestId);
    const credential = await this.credentials.findOneBy({
      credentialId: response.id,
      ...(userId === null ? {} : { userId }),
    });
    if (!credential) return this.refuse('unknown credential', requestId);
    const handle = response.response.userHandle;
    if (handle !== undefined && handle !== credential.userHandle) {
      return this.refuse('user handle does not match the credential', requestId);
    }
    let newCounter: number;
    let backedUp: boolean;
    try {
      const result = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: this.rp.origin,
        expectedRPID: this.rp.id,
        requireUserVerification: true,
        credential: {
          id: credential.credentialId,
          publicKey: new Uint8Array(credential.publicKey),
          counter: credential.counter,
          transports: credential.transports,
        },
      });
      if (!result.verified) return this.refuse('signature not verified', requestId);
      ({ newCounter, credentialBackedUp: backedUp } = result.authenticationInfo);
    } catch (error) {
      return this.refuse((error as Error).message, requestId);
    }
    const now = this.clock.now();
    const used = await this.dataSource.query<{ id: string }[]>(RECORD_USE_SQL, [
      credential.id,
      newCounter,
      backedUp,
      now,
    ]);
    if (used.length === 0) return this.refuse('signature counter did not move forward', requestId);
    return Object.assign(credential, { counter: newCounter, backedUp, lastUsedAt: now });
  }

  private refuse(reason: string, requestId: string): null {
    // The reason is for the operator; the client only learns that verification failed.
    this.logger.warn({ requestId }, `passkey assertion refused: ${reason}`);
    return null;
  }
}
