import { randomInt } from 'node:crypto';
import { sha256Hex } from '../../../common/crypto/hash';

/**
 * The user code's alphabet (RFC 8628 section 6.1): 20 consonants, no vowels (no words spelled
 * by accident) and no look-alikes of digits; 8 of them make 20^8 ≈ 2.6 × 10^10 codes.
 */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
export const USER_CODE_LENGTH = 8;

/** A new user code, shown `BCDF-GHJK` (its normalised form without the dash). */
export function newUserCode(): string {
  let code = '';
  for (let i = 0; i < USER_CODE_LENGTH; i += 1) {
    code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  }
  return code;
}

/** How a normalised code is shown and put in verification_uri_complete: `BCDF-GHJK`. */
export function displayUserCode(normalised: string): string {
  return `${normalised.slice(0, 4)}-${normalised.slice(4)}`;
}

/**
 * What a person typed, in the form codes are compared in: upper case, without dashes and white
 * space; null when it cannot be a user code (another length or a letter outside the alphabet),
 * which is answered like any other unusable code.
 */
export function normaliseUserCode(typed: unknown): string | null {
  if (typeof typed !== 'string' || typed.length > 64) return null;
  const code = typed.toUpperCase().replace(/[\s-]/g, '');
  if (code.length !== USER_CODE_LENGTH) return null;
  for (const letter of code) if (!USER_CODE_ALPHABET.includes(letter)) return null;
  return code;
}

/** What is stored of a user code: the SHA-256 of its normalised form. */
export function userCodeHash(normalised: string): string {
  return sha256Hex(normalised);
}
