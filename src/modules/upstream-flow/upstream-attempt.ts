import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * The per-attempt secrets of one trip to an upstream provider. They travel sealed in an
 * HttpOnly cookie of the browser that started the trip (like the pending request, nothing is
 * stored for an attempt), so only that browser can finish it: `state` in the provider's answer
 * must equal the one sealed here.
 */
export interface UpstreamAttempt {
  /** sign-in continues an authorization request; bind adds the identity to a signed-in user. */
  purpose: 'sign-in' | 'bind';
  providerId: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  /** sign-in: the sealed pending authorization request the trip continues. */
  request?: string;
  /** bind: the signed-in user who asked; the callback must come with that user's session. */
  userId?: string;
  /** Unix time in seconds after which the answer is refused. */
  exp: number;
}

export const ATTEMPT_COOKIE = 'idsvc_upstream';
/** Long enough to sign in at a provider (and pass its 2FA), short enough to be useless later. */
export const ATTEMPT_TTL_SECONDS = 600;
const MAX_SEALED_LENGTH = 8000;

const VERSION = 'u1.';
const IV_BYTES = 12; // NIST SP 800-38D section 8.2
const TAG_BYTES = 16;
// Domain separation from the pending-request key (sealed-request.ts), though both come from
// SESSION_SECRET: an attempt cannot be passed off as a request, nor the reverse.
const HKDF_INFO = 'idsvc upstream sign-in attempt aes-256-gcm v1';
const AAD = Buffer.from(HKDF_INFO);

/** AES-256-GCM with a key derived from SESSION_SECRET by HKDF-SHA256 (RFC 5869). */
export class AttemptSealer {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, '', HKDF_INFO, 32));
  }

  seal(attempt: UpstreamAttempt): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(AAD);
    const body = Buffer.concat([cipher.update(JSON.stringify(attempt), 'utf8'), cipher.final()]);
    return VERSION + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
  }

  /** The attempt, or null for anything this key did not seal (tampered, truncated, garbage). */
  open(value: unknown): UpstreamAttempt | null {
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
      const parsed = JSON.parse(text) as Partial<UpstreamAttempt> | null;
      return parsed && typeof parsed.state === 'string' && typeof parsed.exp === 'number'
        ? (parsed as UpstreamAttempt)
        : null;
    } catch {
      return null;
    }
  }
}
