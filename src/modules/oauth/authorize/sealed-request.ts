import { Aead } from '../../../common/crypto/aead';
import type { AuthorizationRequest } from './authorization-request';

/** What the browser carries between /oauth2/authorize and the answer to the request. */
export interface SealedRequest {
  /** 256 random bits (base64url): the CSRF binding and the single-use record key. */
  id: string;
  /** Unix time in seconds after which the request is refused. */
  exp: number;
  request: AuthorizationRequest;
}

// Bound on the sealed text accepted back: a validated request with a maximal `state` seals to
// well under this (docs/oauth.md, "Pending requests").
export const MAX_SEALED_LENGTH = 6000;
// Domain separation: this key and these ciphertexts serve no other purpose.
const HKDF_INFO = 'idsvc oauth2 pending authorization request aes-256-gcm v1';

/**
 * A pending authorization request sealed with AES-256-GCM under its own key derived from
 * SESSION_SECRET (common/crypto/aead.ts). The request travels in the login and consent URLs and
 * forms instead of a database row, so an anonymous /authorize costs no storage; the browser can
 * neither read (redirect_uri, PKCE challenge) nor alter it.
 */
export class RequestSealer {
  private readonly aead: Aead;

  constructor(secret: string) {
    this.aead = new Aead(secret, HKDF_INFO, 'v1.');
  }

  seal(payload: SealedRequest): string {
    return this.aead.seal(JSON.stringify(payload));
  }

  /** The payload, or null for anything not sealed by this key (tampered, truncated, garbage). */
  open(value: unknown): SealedRequest | null {
    const text = this.aead.open(value, undefined, MAX_SEALED_LENGTH);
    if (text === null) return null;
    try {
      return asSealedRequest(JSON.parse(text));
    } catch {
      return null;
    }
  }
}

/** Only this service can seal, so this is a guard against its own older formats, not a parser. */
function asSealedRequest(value: unknown): SealedRequest | null {
  const candidate = value as Partial<SealedRequest> | null;
  return candidate !== null &&
    typeof candidate === 'object' &&
    typeof candidate.id === 'string' &&
    typeof candidate.exp === 'number' &&
    typeof candidate.request === 'object' &&
    candidate.request !== null
    ? (candidate as SealedRequest)
    : null;
}
