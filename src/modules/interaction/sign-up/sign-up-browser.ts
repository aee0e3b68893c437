import { Injectable } from '@nestjs/common';
import type { BrowserContext, CookieSpec } from '../../sessions/cookies';
import { Csrf } from '../../sessions/csrf';
import { CODE_TTL_SECONDS } from '../one-time-codes/one-time-codes.service';

/** What the binding covers: this code's id (a decoy's alike). */
const purpose = (id: string): string => `sign-up-browser:${id}`;

/**
 * Binds a sign-up code to the browser that submitted the form (docs/accounts.md, "Sign-up"):
 * whoever proves control of the address must be the one who chose the password. The answer to
 * the form sets the cookie `idsvc_signup` to a MAC of the code's id and of this browser's signed
 * CSRF cookie (Csrf.bindBrowser, as the password reset binds its browser); the code page shows
 * its form, and the code creates the account, only in a browser that sends both. The emailed
 * link opened anywhere else creates nothing, so a person who signs up with someone else's
 * address cannot have them confirm it for him; and the sign-up cookie copied or planted alone
 * into another browser is worth nothing there, since that browser's CSRF cookie differs.
 *
 * Derived, not stored: the check needs no database row, so a decoy id (an address that has an
 * account) gets its cookie and its page exactly as a real one does, and nothing about the id is
 * looked up before the code is. The cookie has the flags of every cookie of the service
 * (HttpOnly, SameSite=Lax, `__Host-` behind https, hence Path=/). A browser holds one at a time:
 * a newer sign-up in it replaces an older one's.
 */
@Injectable()
export class SignUpBrowser {
  constructor(private readonly csrf: Csrf) {}

  /**
   * The cookie that marks this browser as the one that asked for the code `id`; none when the
   * browser has no CSRF cookie of ours (the form it posted was checked against one, so it has).
   */
  cookiesFor(browser: BrowserContext, id: string): CookieSpec[] {
    return this.csrf.bindingCookie(browser, 'signUp', purpose(id), CODE_TTL_SECONDS);
  }

  /** True when `browser` is the one the answer to the form for code `id` went to. */
  started(browser: BrowserContext, id: string): boolean {
    return this.csrf.isBoundBrowser(browser, purpose(id), browser.signUpCookie);
  }
}
