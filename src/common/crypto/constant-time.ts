import { timingSafeEqual } from 'node:crypto';

/**
 * The one constant-time comparison: its time does not tell how many leading bytes matched.
 * Strings compare as their UTF-8 bytes. Unequal lengths return false at once; every caller
 * compares values whose length is not secret (SHA-256 hex digests, a CSRF token, a PKCE
 * challenge, a fixed-length scrypt hash).
 */
export function constantTimeEqual(a: string | Uint8Array, b: string | Uint8Array): boolean {
  const left = typeof a === 'string' ? Buffer.from(a, 'utf8') : a;
  const right = typeof b === 'string' ? Buffer.from(b, 'utf8') : b;
  return left.length === right.length && timingSafeEqual(left, right);
}
