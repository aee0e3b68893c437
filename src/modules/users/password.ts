import { randomBytes, scrypt } from 'node:crypto';
import { constantTimeEqual } from '../../common/crypto/constant-time';
import { DEFAULT_PASSWORD_HASH_COST } from '../../config/env.schema';

/**
 * Password hashing with scrypt, the memory-hard function in Node's own crypto library.
 * Parameters are one of the equivalent settings the OWASP Password Storage Cheat Sheet lists
 * (N=2^15, r=8, p=3: 32 MiB per hash); PASSWORD_HASH_COST sets log2(N), at least 15 in
 * production (the test suite runs with less). Format: scrypt$N$r$p$salt$hash (base64url), so the
 * parameters can be raised later without breaking stored hashes.
 */
const R = 8;
const P = 3;
const KEY_LENGTH = 32;
// scrypt needs 128·N·r bytes; allow headroom for hashes made with larger N later.
const MAX_MEMORY = 4 * 128 * (1 << DEFAULT_PASSWORD_HASH_COST) * R;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFKC'),
      salt,
      KEY_LENGTH,
      { N: n, r, p, maxmem: MAX_MEMORY },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
}

/** `cost` is log2(N) (AppConfig.passwordHashCost). */
export async function hashPassword(
  password: string,
  cost: number = DEFAULT_PASSWORD_HASH_COST,
): Promise<string> {
  const n = 1 << cost;
  const salt = randomBytes(16);
  const hash = await derive(password, salt, n, R, P);
  return ['scrypt', n, R, P, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(
    password,
    Buffer.from(salt, 'base64url'),
    Number(n),
    Number(r),
    Number(p),
  );
  return constantTimeEqual(actual, expected);
}
