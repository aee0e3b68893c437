import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { IntlMessageFormat as Format } from 'intl-messageformat' with {
  'resolution-mode': 'import',
};
import { catalogs, DEFAULT_LOCALE, SUPPORTED_LOCALES } from './i18n';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { IntlMessageFormat } = require('intl-messageformat') as { IntlMessageFormat: typeof Format };

type Catalog = { [key: string]: string | Catalog };

function flatten(catalog: Catalog, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, value] of Object.entries(catalog)) {
    if (typeof value === 'string') out.set(`${prefix}${name}`, value);
    else for (const [key, text] of flatten(value, `${prefix}${name}.`)) out.set(key, text);
  }
  return out;
}

const SRC = join(__dirname, '..', '..');

/** The source the keys are used in: .ts and .js under src/, tests and catalogs left out. */
function sources(dir = SRC): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|js)$/.test(name) && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

const code = sources().map((path) => ({
  path: relative(SRC, path),
  text: readFileSync(path, 'utf8'),
}));
const english = flatten(catalogs().get(DEFAULT_LOCALE)!);

/** The argument names and tags of an ICU message (throws when it does not parse). */
function argumentsOf(message: string, locale: string): Set<string> {
  const names = new Set<string>();
  type Node = {
    type: number;
    value?: string;
    options?: Record<string, { value: Node[] }>;
    children?: Node[];
  };
  const walk = (nodes: Node[]): void => {
    for (const node of nodes) {
      if (node.type !== 0 && node.type !== 7 && node.value)
        names.add(`${node.type === 8 ? '<>' : ''}${node.value}`);
      for (const option of Object.values(node.options ?? {})) walk(option.value);
      if (node.children) walk(node.children);
    }
  };
  walk(new IntlMessageFormat(message, locale).getAst());
  return names;
}

describe('message catalogs', () => {
  it('exist for English and Simplified Chinese, English first', () => {
    expect(SUPPORTED_LOCALES).toEqual(['en', 'zh-CN']);
  });

  it.each(SUPPORTED_LOCALES.filter((locale) => locale !== DEFAULT_LOCALE))(
    '%s has exactly the keys of the English catalog',
    (locale) => {
      const keys = [...flatten(catalogs().get(locale)!).keys()].sort();
      expect(keys).toEqual([...english.keys()].sort());
    },
  );

  it.each(SUPPORTED_LOCALES)(
    'every message of %s parses as ICU MessageFormat and uses only the arguments and tags of the English one',
    (locale) => {
      const problems: string[] = [];
      for (const [key, message] of flatten(catalogs().get(locale)!)) {
        try {
          const own = argumentsOf(message, locale);
          const allowed = argumentsOf(english.get(key) ?? '', DEFAULT_LOCALE);
          const unknown = [...own].filter((name) => !allowed.has(name));
          if (unknown.length > 0) problems.push(`${key}: ${unknown.join(', ')}`);
        } catch (error) {
          problems.push(`${key}: ${(error as Error).message}`);
        }
      }
      expect(problems).toEqual([]);
    },
  );

  it('has no key the code does not use (each key is written out whole in the source)', () => {
    const unused = [...english.keys()].filter(
      (key) => !code.some(({ text }) => text.includes(`'${key}'`)),
    );
    expect(unused).toEqual([]);
  });

  it('has every key the code uses', () => {
    const used = code.flatMap(({ path, text }) =>
      [...text.matchAll(/\b(?:t|msg|rich)\(\s*'([^']+)'/g)].map((match) => ({
        path,
        key: match[1],
      })),
    );
    expect(used.length).toBeGreaterThan(50);
    expect(used.filter(({ key }) => !english.has(key))).toEqual([]);
  });

  it('has every key the browser scripts name, each within the part of the catalog their page hands them', () => {
    // A page hands its script one part of its catalog (docs/languages.md): a console page the
    // whole `console` section, an /account page the `console.core` one that core.js speaks.
    const named = code
      .filter(({ path }) => path.endsWith('.js'))
      .flatMap(({ path, text }) =>
        [...text.matchAll(/\b(?:t|rich)\(\s*'([^']+)'|'(console\.[\w.]+)'/g)].map((match) => ({
          path,
          key: match[1] ?? match[2],
        })),
      );
    expect(named.length).toBeGreaterThan(150);
    const consolePage = (path: string): boolean =>
      path.startsWith(join('modules', 'console', 'web', 'assets')) && !path.endsWith('core.js');
    const outside = named.filter(
      ({ path, key }) => !key.startsWith(consolePage(path) ? 'console.' : 'console.core.'),
    );
    expect(outside).toEqual([]);
    expect(named.filter(({ key }) => !english.has(key))).toEqual([]);
  });

  it('renders messages with markup tags only through rich(), which escapes around them', () => {
    const tagged = [...english]
      .filter(([, message]) => /<[a-z]+>/.test(message))
      .map(([key]) => key);
    expect(tagged.length).toBeGreaterThan(0);
    const plain = code.flatMap(({ path, text }) =>
      tagged
        .filter((key) => new RegExp(`\\b(?:t|msg)\\(\\s*'${key.replace(/\./g, '\\.')}'`).test(text))
        .map((key) => `${path}: ${key}`),
    );
    expect(plain).toEqual([]);
  });
});
