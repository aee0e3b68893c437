import { Inject, Injectable } from '@nestjs/common';
import { createHmac, hkdfSync } from 'node:crypto';
import { constantTimeEqual } from '../../common/crypto/constant-time';
import { AppConfig } from '../../config/app-config';
import { newOpaqueToken } from '../../common/crypto/opaque-token';
import type { BrowserContext, BrowserCookie, CookieSpec } from './cookies';

/** A form's CSRF token, and the cookie to set when the browser had none of ours yet. */
export interface CsrfForm {
  token: string;
  cookies: CookieSpec[];
}

// Its own key, derived from SESSION_SECRET (RFC 5869), apart from the other uses of the secret.
const HKDF_INFO = 'idsvc csrf hmac-sha256 v1';
/** `<nonce>.<HMAC of the nonce>`, both 43 base64url characters. */
const COOKIE_FORMAT = /^([A-Za-z0-9_-]{43})\.([A-Za-z0-9_-]{43})$/;

/**
 * CSRF protection of the login, consent, bind-upstream and logout forms and of the account
 * page's forms: OWASP's signed double-submit cookie. The cookie holds a random nonce the server
 * signed, so a value the client chose (a cookie planted from a sibling subdomain) is not ours and
 * is replaced; the form's token is an HMAC of that cookie, of the session cookie the browser sent
 * (when there is one) and of what the form is for (the pending request id, "logout", or an
 * account page form such as "account:password"). A form is accepted
 * only from the browser that loaded it, in the same session, for the request it was shown for.
 */
@Injectable()
export class Csrf {
  private readonly key: Buffer;

  constructor(@Inject(AppConfig) config: AppConfig) {
    this.key = Buffer.from(hkdfSync('sha256', config.sessionSecret, '', HKDF_INFO, 32));
  }

  /** The token of a form shown to this browser for `purpose`, with a new cookie if needed. */
  issue(browser: BrowserContext, purpose: string): CsrfForm {
    const { tokens, cookies } = this.issueAll(browser, [purpose]);
    return { token: tokens[purpose], cookies };
  }

  /**
   * The tokens of several forms of one page (one per purpose), all bound to the same cookie,
   * which is set at most once: issuing them one by one would give each a new cookie.
   */
  issueAll<P extends string>(
    browser: BrowserContext,
    purposes: readonly P[],
  ): { tokens: Record<P, string>; cookies: CookieSpec[] } {
    const existing = this.issuedCookie(browser.csrfCookie);
    const cookie = existing ?? this.newCookie();
    const tokens = Object.fromEntries(
      purposes.map((purpose) => [purpose, this.tokenFor(cookie, browser.sessionCookie, purpose)]),
    ) as Record<P, string>;
    return { tokens, cookies: existing === undefined ? [{ name: 'csrf', value: cookie }] : [] };
  }

  /** True when `token` is the one `issue` gave this browser, session and purpose. */
  verify(browser: BrowserContext, purpose: string, token: unknown): boolean {
    const cookie = this.issuedCookie(browser.csrfCookie);
    if (cookie === undefined || typeof token !== 'string') return false;
    return constantTimeEqual(this.tokenFor(cookie, browser.sessionCookie, purpose), token);
  }

  /**
   * A value only this browser can show again for `purpose`: an HMAC of its CSRF cookie (the
   * signed nonce no other browser holds) and the purpose, without the session cookie, so that
   * signing in or out in between keeps it. Undefined when the browser has no cookie of ours.
   * The password reset keeps it in a cookie to know the browser that asked for a code.
   */
  bindBrowser(browser: BrowserContext, purpose: string): string | undefined {
    const cookie = this.issuedCookie(browser.csrfCookie);
    return cookie === undefined ? undefined : this.mac(['browser', cookie, purpose]);
  }

  /**
   * The cookie `name` holding bindBrowser's value for `purpose`, kept `maxAge` seconds; none when
   * the browser has no CSRF cookie of ours. The sign-up and the password reset mark the browser
   * that asked for a code with it.
   */
  bindingCookie(
    browser: BrowserContext,
    name: BrowserCookie,
    purpose: string,
    maxAge: number,
  ): CookieSpec[] {
    const value = this.bindBrowser(browser, purpose);
    return value === undefined ? [] : [{ name, value, maxAge }];
  }

  /** True when `value` is what `bindBrowser` gave this browser for `purpose`. */
  isBoundBrowser(browser: BrowserContext, purpose: string, value: unknown): boolean {
    const expected = this.bindBrowser(browser, purpose);
    return (
      expected !== undefined && typeof value === 'string' && constantTimeEqual(expected, value)
    );
  }

  private newCookie(): string {
    const nonce = newOpaqueToken();
    return `${nonce}.${this.mac(['cookie', nonce])}`;
  }

  /** The cookie when this service signed it; undefined for anything else. */
  private issuedCookie(value: string | undefined): string | undefined {
    const match = value === undefined ? null : COOKIE_FORMAT.exec(value);
    if (!match) return undefined;
    return constantTimeEqual(this.mac(['cookie', match[1]]), match[2]) ? value : undefined;
  }

  private tokenFor(cookie: string, session: string | undefined, purpose: string): string {
    return this.mac(['form', cookie, session ?? '', purpose]);
  }

  /** HMAC-SHA256 of the parts, JSON-encoded so that no two lists of parts give the same input. */
  private mac(parts: string[]): string {
    return createHmac('sha256', this.key).update(JSON.stringify(parts)).digest('base64url');
  }
}
