import { createPublicKey } from 'node:crypto';

/**
 * The JWS algorithms a `private_key_jwt` client may sign its assertions with (RFC 7523 section
 * 3, OIDC Core 9): asymmetric only. `none` and the HMAC family are never accepted, so a public
 * key can never be used as an HMAC secret (algorithm confusion); discovery lists exactly these.
 * `Ed25519` is RFC 9864's fully-specified name of what `EdDSA` means with an Ed25519 key (the
 * name openid-client 6 signs with by default); both verify the same signature.
 */
export const CLIENT_ASSERTION_ALGS = ['RS256', 'PS256', 'ES256', 'EdDSA', 'Ed25519'] as const;
export type ClientAssertionAlg = (typeof CLIENT_ASSERTION_ALGS)[number];

/** One public key of a client's JWKS (RFC 7517 section 4), as registered. */
export type PublicJwk = { kty: string; kid?: string; alg?: string; use?: string } & Record<
  string,
  unknown
>;

/** A client's JWK Set (RFC 7517 section 5): public signing keys only. */
export interface ClientJwks {
  keys: PublicJwk[];
}

export const MAX_CLIENT_KEYS = 10;
/** A registered JWKS, as JSON, is at most this long (also the jwks_uri answer's limit). */
export const MAX_JWKS_BYTES = 64 * 1024;
export const MAX_JWKS_URI_LENGTH = 2000;
/** RSA keys shorter than this are refused (NIST SP 800-131A). */
const MIN_RSA_BITS = 2048;

/**
 * The members that make a JWK private or symmetric (RFC 7518 sections 6.2.2, 6.3.2 and 6.4):
 * a JWKS holding one was leaked or mistaken for the client's signing key, and is refused whole.
 */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/**
 * What makes `jwk` private or symmetric key material: its private members, or `kty oct`; empty
 * for a public key. Client keys and the keys of DPoP proofs are refused alike by it.
 */
export function privateMaterialOf(jwk: Record<string, unknown>): string[] {
  if (jwk.kty === 'oct') return ['kty oct'];
  return PRIVATE_MEMBERS.filter((name) => name in jwk);
}

/** Each algorithm with the key type and curve it signs with. */
const ALG_KEYS: Record<ClientAssertionAlg, { kty: string; crv?: string }> = {
  RS256: { kty: 'RSA' },
  PS256: { kty: 'RSA' },
  ES256: { kty: 'EC', crv: 'P-256' },
  EdDSA: { kty: 'OKP', crv: 'Ed25519' },
  Ed25519: { kty: 'OKP', crv: 'Ed25519' },
};

/** Why a JWKS is refused (the caller turns it into its own 400). */
export class InvalidJwksError extends Error {}

/**
 * A client's JWKS checked for registration: an object `{keys: [...]}` of 1 to MAX_CLIENT_KEYS
 * public signing keys, each RSA (2048 bits or more), EC P-256 or OKP Ed25519, importable, with
 * no private or symmetric member (`d`, `p`, `q`, `dp`, `dq`, `qi`, `oth`, `k`; `kty: oct`), an
 * `alg` (when given) from CLIENT_ASSERTION_ALGS matching its type, a `use` (when given) of
 * `sig`, and distinct `kid`s. Returned as stored: the keys as sent.
 */
export function checkClientJwks(value: unknown): ClientJwks {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidJwksError('jwks must be a JWK Set: an object with a keys array');
  }
  const { keys } = value as { keys?: unknown };
  if (!Array.isArray(keys) || keys.length === 0 || keys.length > MAX_CLIENT_KEYS) {
    throw new InvalidJwksError(`jwks.keys must hold 1 to ${MAX_CLIENT_KEYS} keys`);
  }
  if (Buffer.byteLength(JSON.stringify(value)) > MAX_JWKS_BYTES) {
    throw new InvalidJwksError(`jwks must be at most ${MAX_JWKS_BYTES} bytes of JSON`);
  }
  const kids = new Set<string>();
  const checked = keys.map((key, index) => checkKey(key, index));
  for (const key of checked) {
    if (key.kid === undefined) continue;
    if (kids.has(key.kid)) throw new InvalidJwksError(`jwks: kid ${key.kid} appears twice`);
    kids.add(key.kid);
  }
  return { keys: checked };
}

function checkKey(key: unknown, index: number): PublicJwk {
  const where = `jwks.keys[${index}]`;
  if (typeof key !== 'object' || key === null || Array.isArray(key)) {
    throw new InvalidJwksError(`${where} must be a JWK object`);
  }
  const jwk = key as PublicJwk;
  const secret = privateMaterialOf(jwk);
  if (secret.length > 0) {
    throw new InvalidJwksError(
      `${where} holds private or symmetric key material (${secret.join(', ')}): register public keys only`,
    );
  }
  if (!['RSA', 'EC', 'OKP'].includes(jwk.kty)) {
    throw new InvalidJwksError(`${where}: kty must be RSA, EC or OKP`);
  }
  if (jwk.kid !== undefined && (typeof jwk.kid !== 'string' || jwk.kid.length > 200)) {
    throw new InvalidJwksError(`${where}: kid must be a string of at most 200 characters`);
  }
  if (jwk.use !== undefined && jwk.use !== 'sig') {
    throw new InvalidJwksError(`${where}: use must be sig`);
  }
  if (jwk.alg !== undefined) {
    const expected = ALG_KEYS[jwk.alg as ClientAssertionAlg];
    if (expected === undefined) {
      throw new InvalidJwksError(
        `${where}: alg must be one of ${CLIENT_ASSERTION_ALGS.join(', ')}`,
      );
    }
    if (expected.kty !== jwk.kty) {
      throw new InvalidJwksError(`${where}: alg ${jwk.alg} does not sign with a ${jwk.kty} key`);
    }
  }
  if (jwk.kty === 'EC' && jwk.crv !== 'P-256') {
    throw new InvalidJwksError(`${where}: an EC key must be on the P-256 curve (ES256)`);
  }
  if (jwk.kty === 'OKP' && jwk.crv !== 'Ed25519') {
    throw new InvalidJwksError(`${where}: an OKP key must be Ed25519 (EdDSA, Ed25519)`);
  }
  let bits: number | undefined;
  try {
    const imported = createPublicKey({ key: jwk as never, format: 'jwk' });
    bits = imported.asymmetricKeyDetails?.modulusLength;
  } catch {
    throw new InvalidJwksError(`${where} is not a valid ${jwk.kty} public key`);
  }
  if (jwk.kty === 'RSA' && (bits ?? 0) < MIN_RSA_BITS) {
    throw new InvalidJwksError(`${where}: an RSA key must be at least ${MIN_RSA_BITS} bits`);
  }
  return jwk;
}

/**
 * Whether a jwks_uri may be registered: an absolute `https://` URL without credentials or
 * fragment, of at most MAX_JWKS_URI_LENGTH characters. Where it may be fetched from (no
 * loopback, private or link-local address) is checked at every fetch, by the rule webhook
 * deliveries follow (oauth/client-auth/jwks-fetch.ts).
 */
export function isRegistrableJwksUri(value: string): boolean {
  // eslint-disable-next-line no-control-regex
  if (value.length > MAX_JWKS_URI_LENGTH || /[\s\x00-\x1f\x7f\\]/.test(value)) return false;
  if (!/^https:\/\/[^/?#]/i.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && !url.username && !url.password && !url.hash;
  } catch {
    return false;
  }
}

/** The JWKS as one canonical string (keys' members sorted), to compare and to digest. */
export function canonicalJwks(jwks: ClientJwks | null | undefined): string | null {
  if (jwks === null || jwks === undefined) return null;
  return JSON.stringify(
    jwks.keys.map((key) =>
      Object.fromEntries(Object.entries(key).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    ),
  );
}
