// HTML for the server-rendered pages of oauth, upstream sign-in and the console: escaping, the
// page shell and the shared stylesheet's URL. In src/common so the console does not import oauth.
import { SUPPORTED_LOCALES, translator } from '../i18n/i18n';
import { LANGUAGE_SWITCH_PATH, type PageLanguage } from '../i18n/page-language';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: string | number): string {
  return String(value).replace(/[&<>"']/g, (ch) => ESCAPES[ch]);
}

/**
 * Tagged template that escapes every interpolated value unless it is already `Html`
 * (the output of another `html` call), so a page cannot forget to escape.
 */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Value = string | number | Html | Html[];

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0];
  values.forEach((value, i) => {
    const rendered = Array.isArray(value)
      ? value.map((part) => part.text).join('')
      : value instanceof Html
        ? value.text
        : escapeHtml(value);
    out += rendered + strings[i + 1];
  });
  return new Html(out);
}

/**
 * The stylesheet the OAuth pages share with the console (src/modules/console/web/assets/style.css,
 * served by ConsoleWebModule): one look for login, consent and the console, no inline style.
 * Named by URL, so neither the OAuth pages nor this file import the console.
 */
export const STYLESHEET_URL = '/console/assets/style.css';

/**
 * The page skeleton shared by login, consent, upstream and message pages: in the language of
 * the page's request (common/i18n/page-language.ts; English outside the translated routes), with
 * the language switcher where it can change something.
 */
export function layout(lang: PageLanguage, title: string, body: Html): string {
  return html`<!doctype html>
    <html lang="${lang.locale}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title}</title>
        <link rel="stylesheet" href="${STYLESHEET_URL}" />
      </head>
      <body>
        <main class="narrow">
          <h1>${title}</h1>
          ${body} ${languageSwitcher(lang)}
        </main>
      </body>
    </html>`.text;
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
