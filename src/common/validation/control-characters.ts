/**
 * The control characters no text field accepts (docs/errors.md, "Control characters"): the C0
 * controls U+0000 to U+001F (NUL, and TAB, CR and LF too: no field of a form or a JSON body is
 * multi-line; the console's multi-line inputs are split into arrays by the page), DEL U+007F and
 * the C1 controls U+0080 to U+009F. PostgreSQL refuses NUL in text outright; the others have no
 * place in a name, an address, a URL or a token either, and a log or a page could be confused by
 * them.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

export function hasControlCharacter(text: string): boolean {
  return CONTROL_CHARACTER.test(text);
}

/**
 * Whether a parsed body or query string holds a control character in any string: a value, an
 * element of an array, a nested object's value, or a name. Walked with a stack, not recursion:
 * a 100 kB JSON body may nest tens of thousands of arrays.
 */
export function holdsControlCharacter(parsed: unknown): boolean {
  const pending: unknown[] = [parsed];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (hasControlCharacter(value)) return true;
    } else if (Array.isArray(value)) {
      for (const element of value) pending.push(element);
    } else if (typeof value === 'object' && value !== null) {
      for (const [name, field] of Object.entries(value)) {
        if (hasControlCharacter(name)) return true;
        pending.push(field);
      }
    }
  }
  return false;
}
