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

const STYLE = `body{font-family:system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem;color:#222}
h1{font-size:1.4rem}label{display:block;margin:.8rem 0 .2rem}input[type=text],input[type=password]{width:100%;padding:.5rem;box-sizing:border-box}
button{padding:.5rem 1rem;margin:.8rem .4rem 0 0}.error{color:#a00}.muted{color:#666;font-size:.9rem}img.logo{max-width:64px;max-height:64px}`;

/** The page skeleton shared by login, consent and message pages. */
export function layout(title: string, body: Html): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title}</title>
        <style>
          ${new Html(STYLE)}
        </style>
      </head>
      <body>
        <main>
          <h1>${title}</h1>
          ${body}
        </main>
      </body>
    </html>`.text;
}

/** An error or information page. */
export function messagePage(title: string, message: string): string {
  return layout(title, html`<p>${message}</p>`);
}
