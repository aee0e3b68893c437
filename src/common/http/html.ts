// HTML escaping for everything the service renders (pages, emails, translated messages): a leaf
// that imports nothing, so the catalogs (common/i18n) and the pages (modules/pages) both build on
// it. The page shell, the layout and the language switcher are in modules/pages/page-shell.ts.

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
