import { html, Html } from '../../../../common/http/html';

/** URL prefix of the console's static files (script and the stylesheet shared with the OAuth pages). */
export const ASSETS_PATH = '/console/assets';

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
 * The console's page skeleton: top bar (hidden until the script knows who is signed in), the
 * page's shells, the passkey confirmation dialog, and one module script. No inline script or
 * style anywhere, so the CSP can say script-src 'self' and style-src 'self'.
 */
export function consoleLayout(page: ConsolePage): string {
  const current = (name: ConsolePage['section']): Html =>
    page.section === name ? html` aria-current="page"` : html``;
  const script = page.script
    ? html`<script type="module" src="${ASSETS_PATH}/${page.script}.js"></script>`
    : html``;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>${page.title} · Console</title>
        <link rel="stylesheet" href="${ASSETS_PATH}/style.css" />
        ${script}
      </head>
      <body>
        <header class="topbar">
          <a class="brand" href="/console">Identity console</a>
          <nav id="nav" aria-label="Console" hidden>
            <a href="/console" ${current('applications')}>Applications</a>
            <a href="/console/account" ${current('account')}>Account</a>
          </nav>
          <span class="who" id="who" hidden></span>
          <button type="button" id="sign-out" hidden>Sign out</button>
        </header>
        <noscript>
          <p class="alert error">
            The console needs JavaScript (passkeys and the API calls run in the page).
          </p>
        </noscript>
        <p id="loading" class="loading" role="status">Loading…</p>
        ${page.body} ${confirmDialog}
      </body>
    </html>`.text;
}

/**
 * The passkey prompt every key, secret, delete and passkey operation goes through (core.js
 * `confirmed`); the account page carries it too.
 */
export const confirmDialog = html`<dialog id="confirm-dialog" aria-labelledby="confirm-title">
  <form method="dialog" id="confirm-form">
    <h2 id="confirm-title">Confirm with your passkey</h2>
    <p id="confirm-text"></p>
    <p class="muted">
      Your browser will ask for one of your passkeys. Nothing changes until it is confirmed.
    </p>
    <div class="alert error" id="confirm-error" role="alert" hidden></div>
    <button type="submit" id="confirm-go">Confirm with passkey</button>
    <button type="button" class="secondary" id="confirm-cancel">Cancel</button>
  </form>
</dialog>`;

const SECRET_HINT =
  'Copy it now and store it safely: it cannot be shown again. Only its first characters are kept.';

/**
 * A secret shown once (API key plaintext, client secret, webhook signing secret) with a copy
 * button; the script fills the output and reveals the block.
 */
export function secretBlock(id: string, what: string, hint: string = SECRET_HINT): Html {
  return html`<div class="secret" id="${id}" role="region" aria-label="${what}" hidden>
    <strong>${what}</strong>
    <div class="value">
      <output id="${id}-value" class="mono"></output>
      <button type="button" class="secondary" data-copy="${id}-value">Copy</button>
    </div>
    <p class="hint" id="${id}-warning">${hint}</p>
    <button type="button" class="secondary small" data-dismiss="${id}">Done, hide it</button>
  </div>`;
}

/** An inline status line that screen readers announce. */
export function alertBox(id: string): Html {
  return html`<div class="alert" id="${id}" role="alert" hidden></div>`;
}

/** A table inside a sideways-scrolling wrapper, with a body the script fills. */
export function dataTable(id: string, caption: string, headings: string[]): Html {
  const cells = headings.map((heading) => html`<th scope="col">${heading}</th>`);
  return html`<div class="table-wrap">
    <table id="${id}">
      <caption class="visually-hidden">
        ${caption}
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
