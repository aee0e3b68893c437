import { randomBytes, scrypt } from 'node:crypto';
import { constantTimeEqual } from '../../common/crypto/constant-time';

/**
 * Password hashing with scrypt, the memory-hard function in Node's own crypto library.
 * Parameters are one of the equivalent settings the OWASP Password Storage Cheat Sheet lists
 * (N=2^15, r=8, p=3: 32 MiB per hash). Format: scrypt$N$r$p$salt$hash (base64url), so the
 * parameters can be raised later without breaking stored hashes.
 */
const N = 1 << 15;
const R = 8;
const P = 3;
const KEY_LENGTH = 32;
// scrypt needs 128·N·r bytes; allow headroom for hashes made with larger N later.
const MAX_MEMORY = 4 * 128 * N * R;

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

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, N, R, P);
  return ['scrypt', N, R, P, salt.toString('base64url'), hash.toString('base64url')].join('$');
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
