// The pages' languages: one JSON catalog per language in locales/ (the file name is the BCP 47
// tag), loaded once at start into one i18next instance with ICU MessageFormat (docs/languages.md).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import i18next, { type i18n } from 'i18next';
import ICU from 'i18next-icu';
import { escapeHtml, html, Html } from '../http/html';
import type en from './locales/en.json';
import type { IntlMessageFormat as Format } from 'intl-messageformat' with {
  'resolution-mode': 'import',
};

// intl-messageformat is an ES module; Node (20.19 and later) loads it with require, as
// i18next-icu does.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { IntlMessageFormat } = require('intl-messageformat') as { IntlMessageFormat: typeof Format };

declare const LOCALE: unique symbol;
/** A language a catalog exists for (only negotiation and `isLocale` make one). */
export type Locale = string & { readonly [LOCALE]: true };

/** English: the catalog every other one is checked against, and the last resort. */
export const DEFAULT_LOCALE = 'en' as Locale;

/** The catalogs' directory: src/ in tests, dist/ after `npm run build` copied it. */
export const LOCALES_DIR = join(__dirname, 'locales');

type Catalog = { [key: string]: string | Catalog };

function loadCatalogs(): Map<Locale, Catalog> {
  const files = readdirSync(LOCALES_DIR)
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.slice(0, -'.json'.length))
    .sort((a, b) => (a === DEFAULT_LOCALE ? -1 : b === DEFAULT_LOCALE ? 1 : a.localeCompare(b)));
  return new Map(
    files.map((tag) => [
      tag as Locale,
      JSON.parse(readFileSync(join(LOCALES_DIR, `${tag}.json`), 'utf8')) as Catalog,
    ]),
  );
}

const CATALOGS = loadCatalogs();

/** Every language with a catalog, English first (discovery's ui_locales_supported). */
export const SUPPORTED_LOCALES: readonly Locale[] = [...CATALOGS.keys()];

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && CATALOGS.has(value as Locale);
}

const instance: i18n = i18next.createInstance();
void instance.use(ICU).init({
  initAsync: false,
  resources: Object.fromEntries(
    [...CATALOGS].map(([locale, catalog]) => [locale, { translation: catalog }]),
  ),
  lng: DEFAULT_LOCALE,
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: [...SUPPORTED_LOCALES],
  load: 'currentOnly',
  // Values go into pages through the `html` tag, which escapes them.
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** The dotted key of every message, from the English catalog. */
type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];
export type MessageKey = Leaves<typeof en>;

export type MessageValues = Record<string, string | number | Date>;

/** A message of a catalog in one language, as text. */
export type Translate = (key: MessageKey, values?: MessageValues) => string;

export interface Translator {
  locale: Locale;
  t: Translate;
  /**
   * A message with markup tags (`<b>…</b>`, `<a>…</a>`): the text and the values are escaped,
   * and each tag is rendered by the function given for it, so a catalog never holds HTML.
   */
  rich: (
    key: MessageKey,
    values: MessageValues,
    tags: Record<string, (chunks: Html) => Html>,
  ) => Html;
}

const translators = new Map<Locale, Translator>();
const richFormats = new Map<string, Format>();

/** The messages of one language. */
export function translator(locale: Locale): Translator {
  let found = translators.get(locale);
  if (found) return found;
  const fixed = instance.getFixedT(locale);
  const t: Translate = (key, values) => fixed(key, values ?? {});
  const rich: Translator['rich'] = (key, values, tags) => {
    const id = `${locale}\u0000${key}`;
    let format = richFormats.get(id);
    if (!format) {
      const source = instance.getResource(locale, 'translation', key) as unknown;
      const text =
        typeof source === 'string'
          ? source
          : (instance.getResource(DEFAULT_LOCALE, 'translation', key) as string);
      format = new IntlMessageFormat(text, locale);
      richFormats.set(id, format);
    }
    const wrapped = Object.fromEntries(
      Object.entries(tags).map(([tag, render]) => [
        tag,
        (chunks: unknown[]) => render(new Html(chunks.map(partHtml).join(''))),
      ]),
    );
    const out = format.format<Html | string>({ ...values, ...wrapped });
    return new Html(Array.isArray(out) ? out.map(partHtml).join('') : partHtml(out));
  };
  found = { locale, t, rich };
  translators.set(locale, found);
  return found;
}

function partHtml(part: unknown): string {
  return part instanceof Html ? part.text : escapeHtml(String(part));
}

/** Text that is either already words (legacy English) or a catalog message. */
export type Text = string | Message;

export interface Message {
  key: MessageKey;
  /** A value may be a message too (rendered in the same language first). */
  values?: Record<string, MessageValues[string] | Message>;
}

/** A catalog message to render later, in the language of the page it ends up on. */
export function msg(key: MessageKey, values?: Message['values']): Message {
  return { key, values };
}

/** The words of a Text in one language. */
export function render(text: Text, t: Translate): string {
  if (typeof text === 'string') return text;
  const values = Object.fromEntries(
    Object.entries(text.values ?? {}).map(([name, value]) => [
      name,
      typeof value === 'object' && !(value instanceof Date) ? render(value, t) : value,
    ]),
  );
  return t(text.key, values);
}

/**
 * One part of a language's catalog as it is, the dotted path kept (`console.core` →
 * `{console: {core: …}}`): what a page hands to its browser script.
 */
export function catalogPart(locale: Locale, path: string): Catalog {
  const names = path.split('.');
  let part = CATALOGS.get(locale) as Catalog | string | undefined;
  for (const name of names) part = typeof part === 'object' ? part[name] : undefined;
  if (typeof part !== 'object') throw new Error(`No catalog part ${path} in ${locale}`);
  return names.reduceRight<Catalog>((inner, name) => ({ [name]: inner }), part);
}

/** The catalogs as loaded (for the catalog test). */
export function catalogs(): ReadonlyMap<Locale, Catalog> {
  return CATALOGS;
}

/** The `<b>` tag of the catalogs' messages: bold (a name inside a sentence). */
export const BOLD = { b: (chunks: Html): Html => html`<strong>${chunks}</strong>` };

/** The `<code>` tag of messages that name a protocol value (a scope, a parameter). */
export const CODE = { code: (chunks: Html): Html => html`<code>${chunks}</code>` };
