import { createHmac } from 'node:crypto';
import { newOpaqueToken, safeEqual } from './opaque-token';

/**
 * CSRF protection of the login and consent forms: the token is an HMAC (keyed with
 * SESSION_SECRET) of a random HttpOnly browser cookie and the pending request id, so a form
 * is accepted only from the browser that loaded it, for the request it was shown for.
 */
export class Csrf {
  constructor(private readonly secret: string) {}

  newBrowserValue(): string {
    return newOpaqueToken();
  }

  tokenFor(browserValue: string, requestId: string): string {
    return createHmac('sha256', this.secret)
      .update(`csrf:${browserValue}:${requestId}`)
      .digest('base64url');
  }

  verify(browserValue: string | undefined, requestId: string, token: unknown): boolean {
    if (browserValue === undefined || typeof token !== 'string') return false;
    return safeEqual(this.tokenFor(browserValue, requestId), token);
  }
}
