import type { Response } from 'express';
import { setBrowserCookie, type CookieSpec } from '../sessions/cookies';

/** What a login/consent/authorize handler answers: an HTML page or a redirect, plus cookies. */
export interface PageResult {
  status: number;
  html?: string;
  location?: string;
  cookies?: CookieSpec[];
  /** Extra origin the page's forms may lead to (CSP form-action, followed redirects included). */
  formTarget?: string;
  /** Seconds for a Retry-After header (a 429 or 503 page). */
  retryAfterSeconds?: number;
  /**
   * The page loads this service's own script, which calls this service (the login page's
   * passkey sign-in, the account page's passkeys and connected accounts): its CSP adds
   * `script-src 'self'` and `connect-src 'self'`. Every other page runs no script at all.
   */
  ownScript?: boolean;
}

/**
 * Writes a PageResult with the headers every page and redirect of the flow carries: never
 * cached, never framed (clickjacking), no referrer leaking codes or request ids.
 */
export function sendPage(res: Response, result: PageResult, secure: boolean): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  const formAction = ["'self'", result.formTarget].filter(Boolean).join(' ');
  const script = result.ownScript ? "script-src 'self'; connect-src 'self'; " : '';
  res.setHeader(
    'Content-Security-Policy',
    `default-src 'none'; ${script}style-src 'self'; img-src https: data:; ` +
      `form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
  );
  if (result.retryAfterSeconds !== undefined) {
    res.setHeader('Retry-After', String(result.retryAfterSeconds));
  }
  for (const cookie of result.cookies ?? []) setBrowserCookie(res, cookie, secure);
  if (result.location !== undefined) {
    res.redirect(result.status, result.location);
    return;
  }
  res
    .status(result.status)
    .type('html')
    .send(result.html ?? '');
}

/** The CSP source of a redirect URI: its origin, or its scheme for a native app's private-use URI. */
export function cspSourceOf(uri: string): string {
  const url = new URL(uri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
}
