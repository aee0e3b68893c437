import { randomBytes } from 'node:crypto';

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
