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

/** What one walk over a parsed body or query string finds first to refuse it for. */
export type InputProblem = 'too_deep' | 'control_character' | null;

/**
 * One walk over a parsed body or query string: objects or arrays nested more than `maxDepth`
 * levels (nesting-depth.ts), which wins, else a control character in any string (a value, an
 * element of an array, a nested object's value, or a name). Walked with a stack, not recursion:
 * a 100 kB JSON body may nest tens of thousands of arrays.
 */
export function inputProblem(parsed: unknown, maxDepth = Number.POSITIVE_INFINITY): InputProblem {
  const pending: [unknown, number][] = [[parsed, 0]];
  let control = false;
  while (pending.length > 0) {
    const [value, depth] = pending.pop()!;
    if (typeof value === 'string') {
      control ||= hasControlCharacter(value);
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= maxDepth) return 'too_deep';
    if (Array.isArray(value)) {
      for (const element of value) pending.push([element, depth + 1]);
    } else {
      for (const [name, field] of Object.entries(value)) {
        control ||= hasControlCharacter(name);
        pending.push([field, depth + 1]);
      }
    }
  }
  return control ? 'control_character' : null;
}

/** Whether a parsed body or query string holds a control character anywhere (inputProblem). */
export function holdsControlCharacter(parsed: unknown): boolean {
  return inputProblem(parsed) === 'control_character';
}
