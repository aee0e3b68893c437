import { languageSwitcher, pageShell } from '../../../pages/page-shell';
import { html, Html } from '../../../../common/http/html';
import { formatDateTime } from '../../../../common/i18n/dates';
import { render, type Text, type Translate, type Translator } from '../../../../common/i18n/i18n';
import type { PageLanguage } from '../../../../common/i18n/page-language';
import { scriptMessages } from '../../../pages/script-messages';

/** URL prefix of the account page's own static files (its script). */
export const ACCOUNT_ASSETS_PATH = '/account/assets';

/** One page of /account: its title, body and what it needs around them. */
export interface AccountShell {
  title: string;
  body: Html;
  /** `main.wide` (the account page) or `main.narrow` (the sign-in form). */
  width: 'wide' | 'narrow';
  /** The same-origin path of a module script the page loads (the CSP then allows 'self' scripts). */
  script?: string;
  /** Above <main>: the account page's top bar. */
  header?: Html;
}

/**
 * The page skeleton of /account, in the page's language (docs/languages.md) with the language
 * switcher where it can change something: the stylesheet the OAuth pages and the console share, no inline
 * script or style (the CSP forbids both), and `data-sign-in` for the console's shared script
 * module, which goes there when the session has ended.
 */
export function accountLayout(lang: PageLanguage, page: AccountShell): string {
  // The script runs on the console's core.js, whose words come with the page.
  const script = page.script
    ? html`${scriptMessages(lang.locale, 'console.core')}
        <script type="module" src="${page.script}"></script>`
    : html``;
  return pageShell(lang, {
    title: page.title,
    head: script,
    signInPath: '/account/login',
    body: html`${page.header ?? html``}
      <main class="${page.width}">${page.body} ${languageSwitcher(lang)}</main>`,
  });
}

/** A timestamp for people in the page's language, in UTC, the exact RFC 3339 value in `datetime`. */
export function localTime(words: Translator, date: Date | null): Html {
  if (date === null) return html`<span class="muted">${words.t('account.never')}</span>`;
  return html`<time datetime="${date.toISOString()}">${formatDateTime(date, words.locale)}</time>`;
}

/** An error line of a form section (announced by screen readers), in the page's language. */
export function formError(t: Translate, message: Text | undefined): Html {
  return message ? html`<p class="alert error" role="alert">${render(message, t)}</p>` : html``;
}
