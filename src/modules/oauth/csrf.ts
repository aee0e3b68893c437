import { Inject, Injectable } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../../common/crypto/constant-time';
import { AppConfig } from '../../config/app-config';
import { newOpaqueToken } from './opaque-token';
import { CSRF_COOKIE, type BrowserContext, type CookieSpec } from './page-result';

/** The browser's CSRF value, and the cookie to set when the browser had none yet. */
export interface CsrfBrowserValue {
  browserValue: string;
  cookies: CookieSpec[];
}

/**
 * CSRF protection of the login and consent forms: the token is an HMAC (keyed with
 * SESSION_SECRET) of a random HttpOnly browser cookie and the pending request id, so a form
 * is accepted only from the browser that loaded it, for the request it was shown for.
 */
@Injectable()
export class Csrf {
  private readonly secret: string;

  constructor(@Inject(AppConfig) config: AppConfig) {
    this.secret = config.sessionSecret;
  }

  /** The browser's CSRF cookie value, or a new one (with its cookie) when it has none yet. */
  browserValue(browser: BrowserContext): CsrfBrowserValue {
    if (browser.csrfCookie !== undefined && browser.csrfCookie.length <= 100) {
      return { browserValue: browser.csrfCookie, cookies: [] };
    }
    const browserValue = newOpaqueToken();
    return { browserValue, cookies: [{ name: CSRF_COOKIE, value: browserValue }] };
  }

  tokenFor(browserValue: string, requestId: string): string {
    return createHmac('sha256', this.secret)
      .update(`csrf:${browserValue}:${requestId}`)
      .digest('base64url');
  }

  verify(browserValue: string | undefined, requestId: string, token: unknown): boolean {
    if (browserValue === undefined || typeof token !== 'string') return false;
    return constantTimeEqual(this.tokenFor(browserValue, requestId), token);
  }
}
