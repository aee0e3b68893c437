import { createHmac, hkdfSync, randomInt } from 'node:crypto';

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

/**
 * The key user codes are stored under: derived from SESSION_SECRET (HKDF, a purpose of its own),
 * so every instance computes the same one and nothing else shares it.
 */
export function userCodeKey(sessionSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', sessionSecret, '', 'device-user-code', 32));
}

/**
 * What is stored of a user code: an HMAC-SHA-256 of its normalised form under userCodeKey. A
 * plain hash would not protect it: there are only 20^8 codes, so a copy of the table alone
 * would give every live code back in minutes; with the key, the table gives nothing without the
 * service's secret. (The device code, 256 random bits, needs no key: its SHA-256 is enough.)
 */
export function userCodeHash(normalised: string, key: Buffer): string {
  return createHmac('sha256', key).update(normalised).digest('hex');
}
