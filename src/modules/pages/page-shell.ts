import { html, type Html } from '../../common/http/html';
import { SUPPORTED_LOCALES, translator } from '../../common/i18n/i18n';
import { LANGUAGE_SWITCH_PATH, type PageLanguage } from '../../common/i18n/page-language';

/**
 * The stylesheet every page shares (src/modules/console/web/assets/style.css, served by
 * ConsoleWebModule): one look for sign-in, consent, the account page and the console, no inline
 * style. Named by URL, so the pages do not import the console.
 */
export const STYLESHEET_URL = '/console/assets/style.css';

/** What a page puts into the one shell. */
export interface Shell {
  /** The document's <title>. */
  title: string;
  /** Inside <body>: the page's header, main and footer. */
  body: Html;
  /** After the stylesheet in <head>: the page's script and its words (none on most pages). */
  head?: Html;
  /** `data-sign-in` on <body>: where the console's shared script sends a session that ended. */
  signInPath?: string;
}

/**
 * The one page skeleton of every page a person sees (the OAuth and account pages, the console),
 * in the page's language (docs/languages.md): the shared stylesheet, no referrer, no inline
 * script or style (the CSP forbids both).
 */
export function pageShell(lang: PageLanguage, shell: Shell): string {
  const signIn =
    shell.signInPath === undefined ? html`` : html` data-sign-in="${shell.signInPath}"`;
  return html`<!doctype html>
    <html lang="${lang.locale}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>${shell.title}</title>
        <link rel="stylesheet" href="${STYLESHEET_URL}" />
        ${shell.head ?? html``}
      </head>
      <body${signIn}>
        ${shell.body}
      </body>
    </html>`.text;
}

/**
 * A narrow page with its title as heading, and the language switcher where it can change
 * something: login, consent, sign-up, reset, upstream and message pages.
 */
export function layout(lang: PageLanguage, title: string, body: Html): string {
  return pageShell(lang, {
    title,
    body: html`<main class="narrow">
      <h1>${title}</h1>
      ${body} ${languageSwitcher(lang)}
    </main>`,
  });
}

/** An error or information page. */
export function messagePage(lang: PageLanguage, title: string, message: string): string {
  return layout(lang, title, html`<p>${message}</p>`);
}

/**
 * One link per other language, each named in its own language: GET links, so the switcher
 * works without JavaScript; the switch route sets the cookie and comes back to this page.
 */
export function languageSwitcher(lang: PageLanguage): Html {
  const state = lang.switcher();
  if (!state) return html``;
  const links = SUPPORTED_LOCALES.filter((locale) => locale !== state.locale).map((locale) => {
    const href = `${LANGUAGE_SWITCH_PATH}?locale=${encodeURIComponent(locale)}&return=${encodeURIComponent(state.returnTo)}`;
    return html` <a href="${href}" hreflang="${locale}" lang="${locale}"
      >${translator(locale).t('language.name')}</a
    >`;
  });
  return html`<nav class="muted" aria-label="${lang.translator().t('language.switcher')}">
    <p>${links}</p>
  </nav>`;
}
