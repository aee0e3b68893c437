import { randomBase62 } from '../../common/crypto/random';

/** docs/contract/api-keys.md#key-format: `svc_live_` + 32 base62 characters; the first 12 characters are stored. */
export const API_KEY_PREFIX = 'svc_live_';
export const API_KEY_SUFFIX_LENGTH = 32;
export const STORED_PREFIX_LENGTH = 12;
const API_KEY_PATTERN = /^svc_live_[0-9A-Za-z]{32}$/;

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBase62(API_KEY_SUFFIX_LENGTH);
}

export function isWellFormedApiKey(value: string): boolean {
  return API_KEY_PATTERN.test(value);
}

export function storedPrefixOf(key: string): string {
  return key.slice(0, STORED_PREFIX_LENGTH);
}
