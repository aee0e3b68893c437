import { createHash } from 'node:crypto';

/**
 * SHA-256, hex. Fit for high-entropy secrets (API keys, client secrets, OAuth codes, tokens and
 * session ids, which are stored and looked up by this digest), not for passwords.
 */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}
