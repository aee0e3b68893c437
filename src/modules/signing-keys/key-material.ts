import { Aead } from '../../common/crypto/aead';
import { JoseCryptoKey, loadJose } from './jose';
import type { PublicJwk } from './signing-key.entity';

export const SIGNING_ALG = 'RS256';
/** RSA modulus length; RFC 7518 section 3.3 requires at least 2048 bits for RS256. */
const MODULUS_LENGTH = 2048;
// Domain separation: this key encrypts signing keys and nothing else.
const HKDF_INFO = 'idsvc oidc signing key pkcs8 aes-256-gcm v1';

/** A freshly generated key pair, ready to be stored. */
export interface GeneratedKey {
  kid: string;
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
 * Generation, encryption at rest and loading of signing keys. The private key is PKCS#8,
 * sealed with AES-256-GCM under a key derived from SIGNING_KEYS_SECRET (common/crypto/aead.ts);
 * the kid is the associated data, so a ciphertext copied onto another row does not open.
 */
export class KeyMaterial {
  private readonly aead: Aead;

  constructor(secret: string) {
    this.aead = new Aead(secret, HKDF_INFO, 'v1.');
  }

  async generate(): Promise<GeneratedKey> {
    const jose = await loadJose();
    const { publicKey, privateKey } = await jose.generateKeyPair(SIGNING_ALG, {
      modulusLength: MODULUS_LENGTH,
      extractable: true,
    });
    const { kty, n, e } = await jose.exportJWK(publicKey);
    if (kty === undefined || n === undefined || e === undefined) throw new Error('not an RSA key');
    // RFC 7638: the thumbprint names the key, so a kid never names two keys.
    const kid = await jose.calculateJwkThumbprint({ kty, n, e }, 'sha256');
    const pkcs8 = await jose.exportPKCS8(privateKey);
    return {
      kid,
      // RFC 7517 section 4: public members only, plus use/alg/kid for clients that select by them.
      publicJwk: { kty, n, e, kid, alg: SIGNING_ALG, use: 'sig' },
      privateKeySealed: this.aead.seal(pkcs8, kid),
    };
  }

  /** True when the sealed private key opens under the current secret. */
  opens(kid: string, sealed: string): boolean {
    return this.aead.open(sealed, kid) !== null;
  }

  /** The private key, non-extractable; throws SigningKeyUnavailableError when it does not open. */
  async privateKey(kid: string, sealed: string): Promise<JoseCryptoKey> {
    const pkcs8 = this.aead.open(sealed, kid);
    if (pkcs8 === null) throw new SigningKeyUnavailableError(kid);
    const jose = await loadJose();
    return jose.importPKCS8(pkcs8, SIGNING_ALG);
  }
}
