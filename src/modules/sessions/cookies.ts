import type { CookieOptions, Request, Response } from 'express';

export interface CookieSpec {
  name: BrowserCookie;
  value: string;
  /** Seconds; undefined = a browser-session cookie; 0 = delete. */
  maxAge?: number;
}

/** Deletes the session cookie (sign-out, or "Use another account"). */
export const CLEAR_SESSION: CookieSpec = { name: 'session', value: '', maxAge: 0 };

/** The browser side of a request: its cookies, address and User-Agent. */
export interface BrowserContext {
  ip: string;
  /** The User-Agent header, '' when absent (recorded with a sign-in). */
  userAgent: string;
  sessionCookie?: string;
  csrfCookie?: string;
  /** The sign-up cookie: which sign-up code this browser asked for (interaction/sign-up). */
  signUpCookie?: string;
  /** The reset cookie: which password reset this browser asked for (interaction/password-reset). */
  resetCookie?: string;
  secure: boolean;
}

/** Every cookie the service sets, by what it holds (the one list of cookie names). */
const COOKIE_NAMES = {
  session: 'idsvc_session',
  csrf: 'idsvc_csrf',
  upstream: 'idsvc_upstream',
  reset: 'idsvc_reset',
  signUp: 'idsvc_signup',
} as const;
export type BrowserCookie = keyof typeof COOKIE_NAMES;

/**
 * A cookie's name on the wire. Behind https it carries the `__Host-` prefix (RFC 6265bis
 * section 4.1.3.2): the browser keeps it only when set Secure, Path=/ and without Domain by
 * this very host, so a sibling subdomain (or a plain-http page of the same host) cannot plant
 * or overwrite it. Over http (development, tests) the prefix would be refused: no prefix.
 */
export function cookieName(cookie: BrowserCookie, secure: boolean): string {
  return secure ? `__Host-${COOKIE_NAMES[cookie]}` : COOKIE_NAMES[cookie];
}

/** One of our cookies from cookie-parser's `req.cookies`; empty counts as absent. */
export function readCookie(
  req: Request,
  cookie: BrowserCookie,
  secure: boolean,
): string | undefined {
  const value = ((req.cookies ?? {}) as Record<string, unknown>)[cookieName(cookie, secure)];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function browserContext(req: Request, secure: boolean): BrowserContext {
  return {
    ip: req.ip ?? req.socket.remoteAddress ?? 'unknown',
    userAgent: req.get('user-agent') ?? '',
    sessionCookie: readCookie(req, 'session', secure),
    csrfCookie: readCookie(req, 'csrf', secure),
    signUpCookie: readCookie(req, 'signUp', secure),
    resetCookie: readCookie(req, 'reset', secure),
    secure,
  };
}

/**
 * Sets one of the service's browser cookies (session, CSRF, upstream attempt, password reset,
 * sign-up) with the flags
 * they all share: HttpOnly, SameSite=Lax (the session must survive the top-level redirect back
 * from a client or provider), Secure behind https, whole-site path, never a Domain (all three
 * are what the `__Host-` prefix of cookieName requires).
 */
export function setBrowserCookie(res: Response, cookie: CookieSpec, secure: boolean): void {
  res.cookie(cookieName(cookie.name, secure), cookie.value, {
    ...browserCookieFlags(secure),
    ...(cookie.maxAge === undefined ? {} : { maxAge: cookie.maxAge * 1000 }),
  });
}

/** The attributes of every cookie we set (and must repeat to clear one). */
export function browserCookieFlags(secure: boolean): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure, path: '/' };
}
