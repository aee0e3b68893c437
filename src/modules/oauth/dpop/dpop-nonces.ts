import { createHmac, hkdfSync } from 'node:crypto';
import { constantTimeEqual } from '../../../common/crypto/constant-time';

/** A nonce is the current one for this long; the previous one is still accepted. */
export const DPOP_NONCE_WINDOW_SECONDS = 300;

/**
 * The server-provided DPoP nonces (RFC 9449 section 8 and 9): the nonce of a time window is a MAC
 * of the window's number under a key derived from SESSION_SECRET. Every instance computes the
 * same nonce without sharing anything but the secret, so a nonce one instance gave is accepted
 * by another; it changes every DPOP_NONCE_WINDOW_SECONDS, and the nonce of the window before is
 * accepted too, so a client that just received one is never refused for the turn of a window.
 * A nonce proves that a proof was made after the nonce was issued (proofs made in advance are
 * refused); the single use of proofs is the `jti` table's.
 */
export class DpopNonces {
  private readonly key: Buffer;
  private cached?: { window: number; nonce: string };

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, '', 'dpop-nonce', 32));
  }

  /** The nonce to hand out at `now` (the `DPoP-Nonce` header). */
  current(now: Date): string {
    const window = windowOf(now);
    if (this.cached?.window !== window) this.cached = { window, nonce: this.nonceOf(window) };
    return this.cached.nonce;
  }

  /** Whether `nonce` is the current nonce at `now` or the one of the window before. */
  accepts(nonce: string, now: Date): boolean {
    const window = windowOf(now);
    return (
      constantTimeEqual(nonce, this.current(now)) ||
      constantTimeEqual(nonce, this.nonceOf(window - 1))
    );
  }

  private nonceOf(window: number): string {
    return createHmac('sha256', this.key).update(String(window)).digest('base64url');
  }
}

function windowOf(now: Date): number {
  return Math.floor(now.getTime() / 1000 / DPOP_NONCE_WINDOW_SECONDS);
}
