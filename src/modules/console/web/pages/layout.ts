import { languageSwitcher, pageShell } from '../../../pages/page-shell';
import { html, Html } from '../../../../common/http/html';
import type { MessageKey, Translate } from '../../../../common/i18n/i18n';
import type { PageLanguage } from '../../../../common/i18n/page-language';
import { ASSETS_PATH, scriptMessages } from '../../../pages/script-messages';

export { ASSETS_PATH };

/** The browser script each page runs; one ES module per page, sharing console-core.js. */
export type PageScript = 'home' | 'application' | 'account';

export interface ConsolePage {
  title: string;
  script?: PageScript;
  /** The page's <main> elements (a shell: the script fills them through the JSON API). */
  body: Html;
  /** Highlighted in the top bar. */
  section?: 'applications' | 'account';
}

/**
 * The console's page skeleton, in the page's language (docs/languages.md): top bar (hidden until
 * the script knows who is signed in), the page's shells, the passkey confirmation dialog, the
 * language switcher, the script's words as a JSON data block and one module script. No inline
 * script or style anywhere, so the CSP can say script-src 'self' and style-src 'self'.
 */
export function consoleLayout(lang: PageLanguage, page: ConsolePage): string {
  const { t } = lang.translator();
  const current = (name: ConsolePage['section']): Html =>
    page.section === name ? html` aria-current="page"` : html``;
  const script = page.script
    ? html`${scriptMessages(lang.locale, 'console')}
        <script type="module" src="${ASSETS_PATH}/${page.script}.js"></script>`
    : html``;
  return pageShell(lang, {
    title: t('console.layout.title', { title: page.title }),
    head: script,
    body: html`<header class="topbar">
        <a class="brand" href="/console">${t('console.layout.brand')}</a>
        <nav id="nav" aria-label="${t('console.layout.nav')}" hidden>
          <a href="/console" ${current('applications')}>${t('console.layout.applications')}</a>
          <a href="/console/account" ${current('account')}>${t('console.layout.account')}</a>
        </nav>
        <span class="who" id="who" hidden></span>
        <button type="button" id="sign-out" hidden>${t('console.layout.signOut')}</button>
      </header>
      <noscript>
        <p class="alert error">${t('console.layout.noscript')}</p>
      </noscript>
      <p id="loading" class="loading" role="status">${t('console.layout.loading')}</p>
      ${page.body} ${confirmDialog(t)}
      <footer class="language">${languageSwitcher(lang)}</footer>`,
  });
}

/**
 * The passkey prompt every key, secret, delete and passkey operation goes through (core.js
 * `confirmed`); the account page carries it too.
 */
function confirmDialog(t: Translate): Html {
  return html`<dialog id="confirm-dialog" aria-labelledby="confirm-title">
    <form method="dialog" id="confirm-form">
      <h2 id="confirm-title">${t('console.confirm.title')}</h2>
      <p id="confirm-text"></p>
      <p class="muted">${t('console.confirm.lead')}</p>
      <div class="alert error" id="confirm-error" role="alert" hidden></div>
      <button type="submit" id="confirm-go">${t('console.confirm.go')}</button>
      <button type="button" class="secondary" id="confirm-cancel">
        ${t('console.confirm.cancel')}
      </button>
    </form>
  </dialog>`;
}

/**
 * A secret shown once (API key plaintext, client secret, webhook signing secret) with a copy
 * button; the script fills the output and reveals the block.
 */
export function secretBlock(
  t: Translate,
  id: string,
  what: MessageKey,
  hint: MessageKey = 'console.secret.hint',
): Html {
  return html`<div class="secret" id="${id}" role="region" aria-label="${t(what)}" hidden>
    <strong>${t(what)}</strong>
    <div class="value">
      <output id="${id}-value" class="mono"></output>
      <button type="button" class="secondary" data-copy="${id}-value">
        ${t('console.secret.copy')}
      </button>
    </div>
    <p class="hint" id="${id}-warning">${t(hint)}</p>
    <button type="button" class="secondary small" data-dismiss="${id}">
      ${t('console.secret.done')}
    </button>
  </div>`;
}

/** An inline status line that screen readers announce. */
export function alertBox(id: string): Html {
  return html`<div class="alert" id="${id}" role="alert" hidden></div>`;
}

/** A table inside a sideways-scrolling wrapper, with a body the script fills. */
export function dataTable(
  t: Translate,
  id: string,
  caption: MessageKey,
  headings: MessageKey[],
): Html {
  const cells = headings.map((heading) => html`<th scope="col">${t(heading)}</th>`);
  return html`<div class="table-wrap">
    <table id="${id}">
      <caption class="visually-hidden">
        ${t(caption)}
      </caption>
      <thead>
        <tr>
          ${cells}
        </tr>
      </thead>
      <tbody></tbody>
    </table>
  </div>`;
}
