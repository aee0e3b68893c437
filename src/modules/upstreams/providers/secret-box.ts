import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1.';
const IV_BYTES = 12; // NIST SP 800-38D section 8.2: 96-bit random IVs
const TAG_BYTES = 16;
// Domain separation: this key encrypts upstream client secrets and nothing else.
const HKDF_INFO = 'idsvc upstream provider client secret aes-256-gcm v1';

/**
 * Encryption at rest of upstream client secrets: AES-256-GCM with a key derived from
 * SESSION_SECRET by HKDF-SHA256, as sealed-request.ts does. The provider id is the associated
 * data, so a ciphertext copied onto another provider's row does not decrypt.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, '', HKDF_INFO, 32));
  }

  seal(plaintext: string, providerId: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(providerId));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return VERSION + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
  }

  /** Throws when the text was not sealed by this key for this provider (e.g. SESSION_SECRET changed). */
  open(sealed: string, providerId: string): string {
    if (!sealed.startsWith(VERSION)) throw new Error('unknown secret format');
    const raw = Buffer.from(sealed.slice(VERSION.length), 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('truncated secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES))
      .setAAD(Buffer.from(providerId))
      .setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    return Buffer.concat([
      decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8');
  }
}
