import type { Request } from 'express';
import { hasControlCharacter } from '../validation/control-characters';

// The one rule of reading a request parameter (a query string or a form, as the body reader
// parsed them: request-body.ts), shared by the OAuth endpoints (modules/oauth/protocol/params.ts,
// which adds their errors) and the pages, which read their forms with formOf.

/** The query (or the query-like form) of the authorization endpoint and the browser pages. */
export type Params = Record<string, unknown>;

/** RFC 6749 section 4.1.3 (and RFC 7009 section 2.1, RFC 7662 section 2.1): forms only. */
export const FORM_TYPE = 'application/x-www-form-urlencoded';

/** One parameter as read: absent, a single text value, or refused (repeated or malformed). */
export type Field = { kind: 'absent' } | { kind: 'value'; value: string } | { kind: 'malformed' };

/**
 * The rule of every parameter: absent unless an own property; a value only as a string without
 * a control character (NUL and the others of common/validation/control-characters.ts: no
 * parameter of RFC 6749, 7009, 7662 or of a page has one); anything else is malformed, which RFC
 * 6749 sections 3.1 and 3.2 forbid (a parameter repeated).
 */
export function fieldOf(fields: Params, name: string): Field {
  const value = Object.hasOwn(fields, name) ? fields[name] : undefined;
  if (value === undefined) return { kind: 'absent' };
  if (typeof value !== 'string' || hasControlCharacter(value)) return { kind: 'malformed' };
  return { kind: 'value', value };
}

/** The form body of a browser page's POST; anything else (or no body) reads as an empty form. */
export function formOf(req: Request): Params {
  return req.is(FORM_TYPE) && req.body && typeof req.body === 'object' ? (req.body as Params) : {};
}

/** A page form's text field: its value, or '' when it is absent or not one string. */
export function formText(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A form field holding JSON (a passkey form's assertion), or undefined when it is not JSON. */
export function jsonField(value: unknown): unknown {
  if (typeof value !== 'string') return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}
