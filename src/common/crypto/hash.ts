import { hash } from 'node:crypto';

/**
 * SHA-256, hex. Fit for high-entropy secrets (API keys, client secrets, OAuth codes, tokens and
 * session ids, which are stored and looked up by this digest), not for passwords. Node's one-shot
 * `crypto.hash` (no Hash object per call; the same digest as createHash's).
 */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}
