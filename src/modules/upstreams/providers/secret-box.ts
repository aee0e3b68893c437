import { Aead } from '../../../common/crypto/aead';

// Domain separation: this key encrypts upstream client secrets and nothing else.
const HKDF_INFO = 'idsvc upstream provider client secret aes-256-gcm v1';

/**
 * Encryption at rest of upstream client secrets: AES-256-GCM under a key of their own derived
 * from SESSION_SECRET (common/crypto/aead.ts). The provider id is the associated data, so a
 * ciphertext copied onto another provider's row does not decrypt.
 */
export class SecretBox {
  private readonly aead: Aead;

  constructor(secret: string) {
    this.aead = new Aead(secret, HKDF_INFO, 'v1.');
  }

  seal(plaintext: string, providerId: string): string {
    return this.aead.seal(plaintext, providerId);
  }

  /** Throws when the text was not sealed by this key for this provider (e.g. SESSION_SECRET changed). */
  open(sealed: string, providerId: string): string {
    const plaintext = this.aead.open(sealed, providerId);
    if (plaintext === null) throw new Error('the client secret does not decrypt with this key');
    return plaintext;
  }
}
