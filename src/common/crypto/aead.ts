import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const IV_BYTES = 12; // NIST SP 800-38D section 8.2: 96-bit random IVs
const TAG_BYTES = 16;

/**
 * Authenticated encryption with AES-256-GCM (node:crypto) under a key derived from a service
 * secret by HKDF-SHA256 (RFC 5869). Each purpose passes its own `info`, so every purpose has its
 * own key and one purpose's ciphertexts never open as another's. Sealed text is
 * `<version><base64url(iv || ciphertext || tag)>`; the associated data defaults to `info` and may
 * be narrowed per message (e.g. the row a secret belongs to).
 */
export class Aead {
  private readonly key: Buffer;

  constructor(
    secret: string,
    private readonly info: string,
    private readonly version: string,
  ) {
    this.key = Buffer.from(hkdfSync('sha256', secret, '', info, 32));
  }

  seal(plaintext: string, associatedData: string = this.info): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(Buffer.from(associatedData));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return this.version + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
  }

  /**
   * The plaintext, or null for anything this key did not seal with this associated data
   * (tampered, truncated, another purpose or secret, garbage, or longer than `maxLength`).
   */
  open(
    sealed: unknown,
    associatedData: string = this.info,
    maxLength = Number.POSITIVE_INFINITY,
  ): string | null {
    if (typeof sealed !== 'string' || sealed.length > maxLength) return null;
    if (!sealed.startsWith(this.version)) return null;
    const raw = Buffer.from(sealed.slice(this.version.length), 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES))
        .setAAD(Buffer.from(associatedData))
        .setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      return Buffer.concat([
        decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      return null;
    }
  }
}
