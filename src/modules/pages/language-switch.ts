import type { CookieOptions } from 'express';
import { isLocale, msg, type Locale } from '../../common/i18n/i18n';
import { LANGUAGE_COOKIE_MAX_AGE_SECONDS, safeReturnPath } from '../../common/i18n/page-language';
import { type Params } from '../../common/http/params';
import { PageError } from './page-error';

/** GET /oauth2/language: the language the switcher's link names and the page to return to. */
export function languageSwitch(query: Params): { locale: Locale; returnTo: string } {
  const { locale } = query;
  const returnTo = safeReturnPath(query.return);
  if (!isLocale(locale) || returnTo === undefined) {
    throw new PageError(400, msg('errors.invalidRequestTitle'), msg('errors.notProcessed'));
  }
  return { locale, returnTo };
}

/**
 * The ui_locale cookie's flags: a preference, not a secret, so no `__Host-` name; SameSite=Lax
 * (it must come along on the redirect back from a client), Secure behind https, a year.
 */
export function languageCookieOptions(secure: boolean): CookieOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    maxAge: LANGUAGE_COOKIE_MAX_AGE_SECONDS * 1000,
  };
}
