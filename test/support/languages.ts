import {
  catalogs,
  DEFAULT_LOCALE,
  isLocale,
  translator,
  type Translator,
} from '../../src/common/i18n/i18n';

/**
 * A catalog key where words should be: `login.title`, `mail.reset.subject`… (not a file name of
 * a path, such as `/account/assets/account.js`).
 */
export const RAW_KEY = new RegExp(
  `(?<![\\w/.-])(${Object.keys(catalogs().get(DEFAULT_LOCALE)!).join('|')})\\.[a-zA-Z.]+\\b`,
);

/** A page in `lang`, with each of `words` and no catalog key left showing. */
export function expectPageIn(text: string, lang: string, ...words: string[]): void {
  expect(text).toContain(`<html lang="${lang}">`);
  for (const word of words) expect(text).toContain(word);
  expect(RAW_KEY.exec(text)?.[0]).toBeUndefined();
}

/** An email whose subject, text and HTML parts are in `lang`, with no catalog key showing. */
export function expectMailIn(
  mail: { subject: string; text: string; html: string },
  lang: string,
  subject: string | RegExp,
  ...words: string[]
): void {
  expect(mail.subject).toMatch(subject);
  expect(mail.html).toContain(`<html lang="${lang}">`);
  for (const word of words) {
    expect(mail.text).toContain(word);
    expect(mail.html).toContain(word);
  }
  for (const part of [mail.subject, mail.text, mail.html]) expect(part).not.toMatch(RAW_KEY);
}

/** The messages of the catalog `tag` (`zh-CN`), to read the words a page should show. */
export function catalogOf(tag: string): Translator {
  if (!isLocale(tag)) throw new Error(`no catalog for ${tag}`);
  return translator(tag);
}
