// The language of the page a request answers with, held for the request's duration
// (AsyncLocalStorage), so a page, and the error page of a failure anywhere under it, render in
// it without every service passing it on (docs/languages.md).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { NextFunction, Request, Response } from 'express';
import { DEFAULT_LOCALE, isLocale, translator, type Locale, type Translator } from './i18n';
import { fromAcceptLanguage, fromUiLocales, matchLocale } from './negotiation';

/** The switcher's cookie: a language the visitor picked (not a secret: readable, a year). */
export const LANGUAGE_COOKIE = 'ui_locale';
export const LANGUAGE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 3600;

/** Where the switcher's links go (oauth/interaction's controller). */
export const LANGUAGE_SWITCH_PATH = '/oauth2/language';

interface PageLanguageState {
  locale: Locale;
  /** The authorization request's ui_locales chose it: the switcher would change nothing. */
  fromRequest: boolean;
  /** The page's own URL, for the switcher to come back to (GET pages only). */
  returnTo?: string;
}

const storage = new AsyncLocalStorage<PageLanguageState>();

/** The visitor's own preference: the switcher's cookie, else Accept-Language, else English. */
export function browserLocale(req: Request): Locale {
  const cookie = ((req.cookies ?? {}) as Record<string, unknown>)[LANGUAGE_COOKIE];
  return (
    (typeof cookie === 'string' ? matchLocale(cookie) : undefined) ??
    fromAcceptLanguage(req.get('accept-language')) ??
    DEFAULT_LOCALE
  );
}

/**
 * Middleware of the page routes (after cookie-parser): the request's pages are in the
 * visitor's language until an authorization request's ui_locales says otherwise.
 */
export function pageLanguage(req: Request, _res: Response, next: NextFunction): void {
  storage.run({ locale: browserLocale(req), fromRequest: false, returnTo: returnPath(req) }, next);
}

/** What a page's own URL may carry for the switcher to come back to it. */
const RETURN_PARAMS = new Set(['request', 'id', 'code']);

/**
 * The URL the switcher comes back to: a GET page whose query holds only the sealed request and
 * an emailed code's id and code. Any other page (an authorization or end-session request, a
 * provider's callback, a form's answer) has no switcher: coming back would repeat or leak it.
 */
function returnPath(req: Request): string | undefined {
  if (req.method !== 'GET') return undefined;
  const url = new URL(req.originalUrl, 'http://page.invalid');
  return [...url.searchParams.keys()].every((name) => RETURN_PARAMS.has(name))
    ? req.originalUrl
    : undefined;
}

/** ui_locales (OIDC Core 3.1.2.1): its first supported tag, when there is one, sets the page's language. */
export function useUiLocales(value: unknown): Locale | undefined {
  const locale = fromUiLocales(value);
  if (locale) useRequestLocale(locale);
  return locale;
}

/** The locale an authorization request carries (chosen from its ui_locales at the start). */
export function useRequestLocale(locale: unknown): void {
  const state = storage.getStore();
  if (state && isLocale(locale)) {
    state.locale = locale;
    state.fromRequest = true;
  }
}

/** The current page's language (English outside a page route). */
export function pageLocale(): Locale {
  return storage.getStore()?.locale ?? DEFAULT_LOCALE;
}

/** The current page's messages. */
export function pageTranslator(): Translator {
  return translator(pageLocale());
}

/** What the language switcher needs, or undefined where it is not shown. */
export function switcherState(): { locale: Locale; returnTo: string } | undefined {
  const state = storage.getStore();
  if (!state || state.fromRequest || state.returnTo === undefined) return undefined;
  return { locale: state.locale, returnTo: state.returnTo };
}

/**
 * The path the switcher may send the browser back to: a path of this site only (a leading
 * `/`, never `//` or `/\`, which browsers read as another host), else none.
 */
export function safeReturnPath(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith('/')) return undefined;
  if (value.startsWith('//') || value.startsWith('/\\')) return undefined;
  if ([...value].some((ch) => ch < ' ' || ch === '\u007f')) return undefined;
  return value;
}
