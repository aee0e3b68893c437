import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Spec sections 1 and 8: `svc_live_` + 32 base62 characters; the first 12 characters are stored. */
export const API_KEY_PREFIX = 'svc_live_';
export const API_KEY_SUFFIX_LENGTH = 32;
export const STORED_PREFIX_LENGTH = 12;
const API_KEY_PATTERN = /^svc_live_[0-9A-Za-z]{32}$/;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
// 248 = 4 × 62: bytes at or above it are discarded so every character is equally likely.
const UNBIASED_LIMIT = 256 - (256 % BASE62.length);

/** Uniform random base62 text from the CSPRNG (rejection sampling, no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length + 8)) {
      if (byte < UNBIASED_LIMIT) out += BASE62[byte % BASE62.length];
      if (out.length === length) break;
    }
  }
  return out;
}

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBase62(API_KEY_SUFFIX_LENGTH);
}

export function isWellFormedApiKey(value: string): boolean {
  return API_KEY_PATTERN.test(value);
}

/** SHA-256, hex. Fit for high-entropy secrets (keys, tokens), not for passwords. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

export function storedPrefixOf(key: string): string {
  return key.slice(0, STORED_PREFIX_LENGTH);
}

/** Constant-time comparison of two hex digests of equal length. */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
