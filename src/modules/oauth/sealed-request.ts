import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { AuthorizationRequest } from './authorization-request';

/** What the browser carries between /oauth2/authorize and the answer to the request. */
export interface SealedRequest {
  /** 256 random bits (base64url): the CSRF binding and the single-use record key. */
  id: string;
  /** Unix time in seconds after which the request is refused. */
  exp: number;
  request: AuthorizationRequest;
}

const VERSION = 'v1.';
const IV_BYTES = 12; // NIST SP 800-38D section 8.2: 96-bit IVs, random
const TAG_BYTES = 16;
// Bound on the sealed text accepted back: a validated request with a maximal `state` seals to
// well under this (docs/oauth.md, "Pending requests").
export const MAX_SEALED_LENGTH = 6000;
// Domain separation: this key and these ciphertexts serve no other purpose.
const HKDF_INFO = 'idsvc oauth2 pending authorization request aes-256-gcm v1';
const AAD = Buffer.from(HKDF_INFO);

/**
 * Authenticated encryption (AES-256-GCM, node:crypto) of a pending authorization request, with a
 * key derived from SESSION_SECRET by HKDF-SHA256 (RFC 5869). The request travels in the login
 * and consent URLs and forms instead of a database row, so an anonymous /authorize costs no
 * storage; the browser can neither read (redirect_uri, PKCE challenge) nor alter it.
 */
export class RequestSealer {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, '', HKDF_INFO, 32));
  }

  seal(payload: SealedRequest): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(AAD);
    const body = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]);
    return VERSION + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
  }

  /** The payload, or null for anything not sealed by this key (tampered, truncated, garbage). */
  open(value: unknown): SealedRequest | null {
    if (typeof value !== 'string' || value.length > MAX_SEALED_LENGTH) return null;
    if (!value.startsWith(VERSION)) return null;
    const raw = Buffer.from(value.slice(VERSION.length), 'base64url');
    if (raw.length <= IV_BYTES + TAG_BYTES) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES))
        .setAAD(AAD)
        .setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      const text = Buffer.concat([
        decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
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
