import { createHash, randomBytes } from 'node:crypto';

/**
 * 256 bits from the CSPRNG as base64url (43 characters): codes, tokens, session and request ids.
 * Stored and looked up as sha256Hex (common/crypto/hash.ts), like API keys.
 */
export function newOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

/** BASE64URL(SHA256(code_verifier)) (RFC 7636 section 4.2). */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}
