import { createHash, randomFillSync } from 'node:crypto';

const TOKEN_BYTES = 32;

/**
 * Random bytes for the next 128 tokens, drawn from the CSPRNG in one call, as Node does for
 * randomUUID. One randomBytes call per token cost about 8 µs of the server's CPU under load
 * (OpenSSL also asks the kernel for the process id on every draw, to notice a fork);
 * docs/performance/oauth.md, "Random bytes drawn in bulk". Each slice is handed out once and
 * zeroed as it is taken.
 */
const pool = Buffer.alloc(128 * TOKEN_BYTES);
let taken = pool.length;

/**
 * 256 bits from the CSPRNG as base64url (43 characters): codes, tokens, session and request ids.
 * Stored and looked up as sha256Hex (common/crypto/hash.ts), like API keys.
 */
export function newOpaqueToken(): string {
  if (taken === pool.length) {
    randomFillSync(pool);
    taken = 0;
  }
  const token = pool.toString('base64url', taken, taken + TOKEN_BYTES);
  pool.fill(0, taken, taken + TOKEN_BYTES);
  taken += TOKEN_BYTES;
  return token;
}

/** BASE64URL(SHA256(code_verifier)) (RFC 7636 section 4.2). */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}
