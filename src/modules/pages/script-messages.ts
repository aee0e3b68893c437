import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { html, Html } from '../../common/http/html';
import { catalogPart, type Locale } from '../../common/i18n/i18n';

/** URL prefix of the console's static files (script and the stylesheet shared with the OAuth pages). */
export const ASSETS_PATH = '/console/assets';

// The message formatter of the browser scripts: intl-messageformat's own browser build (an ES
// module, the package's `intl-messageformat.iife.js`), the same library the server formats with.
// It is served from the installed package at a path naming its version, so it can be cached
// for good and a new version is a new URL.
const FORMATTER_DIR = dirname(require.resolve('intl-messageformat'));
const FORMATTER_VERSION = (
  JSON.parse(readFileSync(join(FORMATTER_DIR, 'package.json'), 'utf8')) as { version: string }
).version;

/** The formatter's file in node_modules. */
export const FORMATTER_FILE = join(FORMATTER_DIR, 'intl-messageformat.iife.js');
/** Its name under the console's assets route. */
export const FORMATTER_NAME = `intl-messageformat-${FORMATTER_VERSION}.js`;

/** What a page's script may say: all of the console's words, or only those of core.js. */
export type ScriptMessages = 'console' | 'console.core';

/**
 * The words of the page's script in the page's language `locale`, as a JSON data block that core.js
 * reads (`t`, `rich`): `{locale, formatter, messages}`. A data block is never executed, so the
 * CSP's script-src 'self' holds; `<` is written `\u003c` so no text can close the element.
 */
export function scriptMessages(locale: Locale, part: ScriptMessages): Html {
  const data = JSON.stringify({
    locale,
    formatter: `${ASSETS_PATH}/${FORMATTER_NAME}`,
    messages: catalogPart(locale, part),
  })
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return html`<script type="application/json" id="console-messages">
    ${new Html(data)}
  </script>`;
}
