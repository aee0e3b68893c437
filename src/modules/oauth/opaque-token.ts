import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * 256 bits from the CSPRNG as base64url (43 characters): codes, tokens, session and request ids.
 * Stored and looked up as sha256Hex (keys/key-format.ts), like API keys.
 */
export function newOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

/** BASE64URL(SHA256(code_verifier)) (RFC 7636 section 4.2). */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** Constant-time equality of two strings (lengths may differ; that alone is not secret here). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
