import type { BrowserContext, CookieSpec } from '../../sessions/cookies';
import type { Csrf } from '../../sessions/csrf';
import { CODE_TTL_SECONDS } from '../one-time-codes/one-time-codes.service';

// The browser that asked for a reset code (docs/accounts.md, "Password reset"). The emailed link
// carries the code and the authorization request; whoever holds it sets the password, but only
// the browser that submitted the forgot form is signed in and continues the request. Another
// browser (the link forwarded, or a reset someone else started for this address) lands on the
// account's sign-in page, so it never completes an authorization it did not start.

/** What the binding covers: this code id and this sealed request ('' for none). */
const purpose = (id: string, request: string | undefined): string =>
  `password-reset-browser:${id}:${request ?? ''}`;

/**
 * The cookie of the answer to the forgot form: the binding of code `id` (a decoy's alike) and
 * `request` to this browser, for the code's lifetime. A newer form replaces it.
 */
export function askedHereCookie(
  csrf: Csrf,
  browser: BrowserContext,
  id: string,
  request: string | undefined,
): CookieSpec[] {
  return csrf.bindingCookie(browser, 'reset', purpose(id, request), CODE_TTL_SECONDS);
}

/** Whether `cookie` is this browser's binding of code `id` and `request`. */
export function askedHere(
  csrf: Csrf,
  browser: BrowserContext,
  cookie: string | undefined,
  id: string,
  request: string | undefined,
): boolean {
  return csrf.isBoundBrowser(browser, purpose(id, request), cookie);
}

/** Deletes the binding once a reset used it. */
export const CLEAR_RESET: CookieSpec = { name: 'reset', value: '', maxAge: 0 };
