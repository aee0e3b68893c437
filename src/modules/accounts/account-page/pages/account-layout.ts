import { html, Html, STYLESHEET_URL } from '../../../../common/http/html';

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
 * The page skeleton of /account: the stylesheet the OAuth pages and the console share, no inline
 * script or style (the CSP forbids both), and `data-sign-in` for the console's shared script
 * module, which goes there when the session has ended.
 */
export function accountLayout(page: AccountShell): string {
  const script = page.script ? html`<script type="module" src="${page.script}"></script>` : html``;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>${page.title}</title>
        <link rel="stylesheet" href="${STYLESHEET_URL}" />
        ${script}
      </head>
      <body data-sign-in="/account/login">
        ${page.header ?? html``}
        <main class="${page.width}">${page.body}</main>
      </body>
    </html>`.text;
}

/** A timestamp for people, in UTC, with the exact RFC 3339 value in `datetime`. */
export function utcTime(date: Date | null, never = 'never'): Html {
  if (date === null) return html`<span class="muted">${never}</span>`;
  const iso = date.toISOString();
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

/** An error line of a form section (announced by screen readers). */
export function formError(message: string | undefined): Html {
  return message ? html`<p class="alert error" role="alert">${message}</p>` : html``;
}
