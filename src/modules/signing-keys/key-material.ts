import { Aead } from '../../common/crypto/aead';
import { DEFAULT_ID_TOKEN_SIGNING_ALG, IdTokenSigningAlg } from '../../common/crypto/signing-algs';
import { JoseCryptoKey, JoseJwk, loadJose } from './jose';
import type { PublicJwk } from './signing-key.entity';

/** RSA modulus length; RFC 7518 sections 3.3 and 3.5 require at least 2048 bits (RS256, PS256). */
const MODULUS_LENGTH = 2048;
// Domain separation: this key encrypts signing keys and nothing else.
const HKDF_INFO = 'idsvc oidc signing key pkcs8 aes-256-gcm v1';

/**
 * The public members of each key type (RFC 7518 sections 6.2.1 and 6.3.1, RFC 8037 section 2):
 * what is published, and all that is (never `d`, `p`, `q`, `dp`, `dq`, `qi`).
 */
const PUBLIC_MEMBERS: Record<string, readonly (keyof JoseJwk)[]> = {
  RSA: ['n', 'e'],
  EC: ['crv', 'x', 'y'],
  OKP: ['crv', 'x'],
};

/** A freshly generated key pair, ready to be stored. */
export interface GeneratedKey {
  kid: string;
  alg: IdTokenSigningAlg;
  publicJwk: PublicJwk;
  privateKeySealed: string;
}

/** The private key of `kid` does not open under SIGNING_KEYS_SECRET (changed, or tampered). */
export class SigningKeyUnavailableError extends Error {
  constructor(readonly kid: string) {
    super(
      `signing key ${kid}: its private key does not decrypt with SIGNING_KEYS_SECRET ` +
        '(changed since it was created, or the row was altered); restore the secret, or run ' +
        '"signing-key rotate" (docs/oidc.md, "Signing keys")',
    );
    this.name = 'SigningKeyUnavailableError';
  }
}

/**
 * The associated data of a sealed key: its kid, and for every alg but RS256 (whose rows predate
 * the others and keep opening as they were sealed) the alg too, so that a key sealed for one
 * algorithm does not open as a key of another (two RSA keys, PS256 and RS256, share a type).
 */
function associatedData(kid: string, alg: IdTokenSigningAlg): string {
  return alg === DEFAULT_ID_TOKEN_SIGNING_ALG ? kid : `${alg} ${kid}`;
}

/**
 * Generation, encryption at rest and loading of signing keys, one key type per algorithm: RSA
 * 2048 (RS256, PS256; one key each, never shared), EC P-256 (ES256), Ed25519 (EdDSA). The private
 * key is PKCS#8, sealed with AES-256-GCM under a key derived from SIGNING_KEYS_SECRET
 * (common/crypto/aead.ts); the kid (and alg) is the associated data, so a ciphertext copied onto
 * another row does not open.
 */
export class KeyMaterial {
  private readonly aead: Aead;

  constructor(secret: string) {
    this.aead = new Aead(secret, HKDF_INFO, 'v1.');
  }

  async generate(alg: IdTokenSigningAlg = DEFAULT_ID_TOKEN_SIGNING_ALG): Promise<GeneratedKey> {
    const jose = await loadJose();
    const { publicKey, privateKey } = await jose.generateKeyPair(alg, {
      ...(alg === 'RS256' || alg === 'PS256' ? { modulusLength: MODULUS_LENGTH } : {}),
      extractable: true,
    });
    const exported = await jose.exportJWK(publicKey);
    const members = PUBLIC_MEMBERS[exported.kty ?? ''];
    if (members === undefined) throw new Error(`unexpected key type for ${alg}`);
    const publicMembers: Record<string, string> = { kty: exported.kty! };
    for (const member of members) {
      const value = exported[member];
      if (typeof value !== 'string') throw new Error(`${alg} key without ${member}`);
      publicMembers[member] = value;
    }
    // RFC 7638: the thumbprint names the key, so a kid never names two keys.
    const kid = await jose.calculateJwkThumbprint(publicMembers, 'sha256');
    const pkcs8 = await jose.exportPKCS8(privateKey);
    return {
      kid,
      alg,
      // RFC 7517 section 4: public members only, plus use/alg/kid for clients that select by them.
      publicJwk: { ...publicMembers, kid, alg, use: 'sig' } as PublicJwk,
      privateKeySealed: this.aead.seal(pkcs8, associatedData(kid, alg)),
    };
  }

  /** True when the sealed private key opens under the current secret. */
  opens(kid: string, alg: IdTokenSigningAlg, sealed: string): boolean {
    return this.aead.open(sealed, associatedData(kid, alg)) !== null;
  }

  /** The private key, non-extractable; throws SigningKeyUnavailableError when it does not open. */
  async privateKey(kid: string, alg: IdTokenSigningAlg, sealed: string): Promise<JoseCryptoKey> {
    const pkcs8 = this.aead.open(sealed, associatedData(kid, alg));
    if (pkcs8 === null) throw new SigningKeyUnavailableError(kid);
    const jose = await loadJose();
    return jose.importPKCS8(pkcs8, alg);
  }
}
