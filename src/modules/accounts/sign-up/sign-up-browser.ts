import { Inject, Injectable } from '@nestjs/common';
import { createHmac, hkdfSync } from 'node:crypto';
import { constantTimeEqual } from '../../../common/crypto/constant-time';
import { AppConfig } from '../../../config/app-config';
import type { BrowserContext, CookieSpec } from '../../sessions/cookies';
import { CODE_TTL_SECONDS } from '../one-time-codes/one-time-codes.service';

// Its own key, derived from SESSION_SECRET (RFC 5869), apart from the other uses of the secret.
const HKDF_INFO = 'idsvc sign-up browser hmac-sha256 v1';

/**
 * Binds a sign-up code to the browser that submitted the form (docs/accounts.md, "Sign-up"):
 * whoever proves control of the address must be the one who chose the password. The answer to
 * the form sets the cookie `idsvc_signup` to an HMAC of the code's id under a key only the
 * service has; the code page shows its form, and the code creates the account, only in a
 * browser that sends that value. The emailed link opened anywhere else creates nothing, so a
 * person who signs up with someone else's address cannot have them confirm it for him.
 *
 * Derived, not stored: the check needs no database row, so a decoy id (an address that has an
 * account) gets its cookie and its page exactly as a real one does, and nothing about the id
 * is looked up before the code is. The cookie has the flags of every cookie of the service
 * (HttpOnly, SameSite=Lax, `__Host-` behind https, hence Path=/): a sibling subdomain cannot
 * plant the value the person who started the sign-up was given into another browser. A browser
 * holds one at a time: a newer sign-up in it replaces an older one's.
 */
@Injectable()
export class SignUpBrowser {
  private readonly key: Buffer;

  constructor(@Inject(AppConfig) config: AppConfig) {
    this.key = Buffer.from(hkdfSync('sha256', config.sessionSecret, '', HKDF_INFO, 32));
  }

  /** The cookie that marks this browser as the one that asked for the code `id`. */
  cookieFor(id: string): CookieSpec {
    return { name: 'signUp', value: this.valueFor(id), maxAge: CODE_TTL_SECONDS };
  }

  /** True when `browser` is the one the answer to the form for code `id` went to. */
  started(browser: BrowserContext, id: string): boolean {
    const cookie = browser.signUpCookie;
    return cookie !== undefined && constantTimeEqual(this.valueFor(id), cookie);
  }

  private valueFor(id: string): string {
    return createHmac('sha256', this.key).update(`sign-up:${id}`).digest('base64url');
  }
}
