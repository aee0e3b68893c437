import { randomBytes } from 'node:crypto';
import { Aead } from '../../common/crypto/aead';

// Domain separation: this key encrypts webhook signing secrets and nothing else.
const HKDF_INFO = 'idsvc webhook endpoint secret aes-256-gcm v1';

/** Random bytes of a signing secret: 192 bits, above the 128 the Standard Webhooks spec asks. */
const SECRET_BYTES = 24;

/** A new signing secret in the Standard Webhooks form: `whsec_` + base64 of random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/**
 * Encryption at rest of webhook signing secrets: AES-256-GCM under a key of their own derived
 * from SIGNING_KEYS_SECRET (common/crypto/aead.ts), the secret that already protects the
 * service's own signing material. The endpoint id is the associated data, so a sealed secret
 * copied onto another endpoint's row does not open.
 */
export class WebhookSecretBox {
  private readonly aead: Aead;

  constructor(secret: string) {
    this.aead = new Aead(secret, HKDF_INFO, 'v1.');
  }

  seal(plaintext: string, endpointId: number): string {
    return this.aead.seal(plaintext, `webhook:${endpointId}`);
  }

  /** Throws when the text was not sealed by this key for this endpoint (the secret changed). */
  open(sealed: string, endpointId: number): string {
    const plaintext = this.aead.open(sealed, `webhook:${endpointId}`);
    if (plaintext === null) throw new Error('the webhook secret does not decrypt with this key');
    return plaintext;
  }
}
