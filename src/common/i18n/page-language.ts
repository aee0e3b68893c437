// The language of the page a request answers with. The page routes' middleware makes one
// PageLanguage per request and keeps it with that request; controllers take it from there
// (@PageLang()) and hand it to what renders a page or picks an email's language, and the page
// exception filter reads it from the request it handles (docs/languages.md). It is never held in
// process-wide async context: on Node 20 an AsyncLocalStorage that has run once installs promise
// hooks for every promise in the process, for good (docs/performance/oauth.md).
import type { NextFunction, Request, Response } from 'express';
import { DEFAULT_LOCALE, isLocale, translator, type Locale, type Translator } from './i18n';
import { fromAcceptLanguage, fromUiLocales, matchLocale } from './negotiation';

/** The switcher's cookie: a language the visitor picked (not a secret: readable, a year). */
export const LANGUAGE_COOKIE = 'ui_locale';
export const LANGUAGE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 3600;

/** Where the switcher's links go (interaction/authorization-pages' controller). */
export const LANGUAGE_SWITCH_PATH = '/oauth2/language';

/** What the language switcher needs: the page's language and the URL to come back to. */
export interface SwitcherState {
  locale: Locale;
  returnTo: string;
}

/**
 * One request's page language: the visitor's own until an authorization request's ui_locales
 * says otherwise (which may happen halfway through the request, when a sealed request is
 * opened), so whatever renders later, an error page included, reads it then.
 */
export class PageLanguage {
  /**
   * Outside the page routes (an API, a body refused before routing): English, no switcher, and
   * ui_locales change nothing.
   */
  static readonly OUTSIDE_PAGES = new PageLanguage(DEFAULT_LOCALE, undefined, false);

  /** The authorization request's ui_locales chose it: the switcher would change nothing. */
  private fromRequest = false;

  private constructor(
    private current: Locale,
    /** The page's own URL, for the switcher to come back to (GET pages only). */
    private readonly returnTo: string | undefined,
    /** False outside the page routes, whose language never changes. */
    private readonly followsRequest: boolean,
  ) {}

  /** A page request's language: the visitor's preference, with the switcher where it fits. */
  static forPage(req: Request): PageLanguage {
    return new PageLanguage(browserLocale(req), returnPath(req), true);
  }

  /** The page's language. */
  get locale(): Locale {
    return this.current;
  }

  /** The language a request's ui_locales chose for this page, if one did (a form carries it on). */
  get requestLocale(): Locale | undefined {
    return this.fromRequest ? this.current : undefined;
  }

  /** The page's messages. */
  translator(): Translator {
    return translator(this.current);
  }

  /** What the language switcher needs, or undefined where it is not shown. */
  switcher(): SwitcherState | undefined {
    if (this.fromRequest || this.returnTo === undefined) return undefined;
    return { locale: this.current, returnTo: this.returnTo };
  }

  /**
   * ui_locales (OIDC Core 3.1.2.1): its first supported tag, when there is one, sets the page's
   * language.
   */
  useUiLocales(value: unknown): Locale | undefined {
    const locale = fromUiLocales(value);
    if (locale) this.useRequestLocale(locale);
    return locale;
  }

  /** The locale an authorization request carries (chosen from its ui_locales at the start). */
  useRequestLocale(locale: unknown): void {
    if (this.followsRequest && isLocale(locale)) {
      this.current = locale;
      this.fromRequest = true;
    }
  }
}

/**
 * Each page request's PageLanguage. A WeakMap keyed by the request rather than a property on it:
 * only this module can set it, Express's Request type stays as it is, and the entry goes when
 * the request is collected.
 */
const languages = new WeakMap<Request, PageLanguage>();

/** The request's page language; English without a switcher outside the page routes. */
export function pageLanguageOf(req: Request): PageLanguage {
  return languages.get(req) ?? PageLanguage.OUTSIDE_PAGES;
}

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
  languages.set(req, PageLanguage.forPage(req));
  next();
}

/**
 * What a page's own URL may carry for the switcher to come back to it, each with the longest
 * value a page of this service ever puts there (`request`: a sealed authorization request's
 * bound; `id` and `code`: an emailed code's; `user_code`: the device page's
 * verification_uri_complete, which only fills its form). A longer value is nothing this
 * service sent, and is not echoed into the switcher's link.
 */
const RETURN_PARAMS = new Map([
  ['request', 6000],
  ['id', 256],
  ['code', 256],
  ['user_code', 64],
]);

/**
 * The URL the switcher comes back to: a GET page whose query holds only the sealed request and
 * an emailed code's id and code. Any other page (an authorization or end-session request, a
 * provider's callback, a form's answer) has no switcher: coming back would repeat or leak it.
 */
function returnPath(req: Request): string | undefined {
  if (req.method !== 'GET') return undefined;
  const url = new URL(req.originalUrl, 'http://page.invalid');
  return [...url.searchParams].every(
    ([name, value]) => value.length <= (RETURN_PARAMS.get(name) ?? -1),
  )
    ? req.originalUrl
    : undefined;
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
