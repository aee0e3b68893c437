import type { Request } from 'express';
import { FORM_TYPE, formParams, repeatedOrMalformed, take } from './form-params';

/** The query (or the query-like form) of the authorization endpoint and the browser pages. */
export type Params = Record<string, unknown>;

/** The form body of a browser page's POST; anything else (or no body) reads as an empty form. */
export function formOf(req: Request): Params {
  return req.is(FORM_TYPE) && req.body && typeof req.body === 'object' ? (req.body as Params) : {};
}

/**
 * One parameter as a string, undefined when absent. A parameter sent twice (an array) or as a
 * nested object is malformed: RFC 6749 sections 3.1 and 3.2 forbid repeating parameters. (The
 * token, revocation and introspection endpoints read their form through form-params.ts instead.)
 */
export function param(params: Params, name: string): string | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw repeatedOrMalformed(name);
  return value;
}

/** Like param(), but an empty value counts as absent (RFC 6749 section 3.1). */
export function nonEmptyParam(params: Params, name: string): string | undefined {
  const value = param(params, name);
  return value === '' ? undefined : value;
}

/**
 * The `access_token` form parameter of a userinfo POST (RFC 6750 section 2.2: only in a body of
 * type application/x-www-form-urlencoded; the body reader refuses other types on these paths),
 * or undefined (also when empty). Sent twice, it is refused like any repeated parameter
 * (`invalid_request`).
 */
export function formAccessToken(req: Request): string | undefined {
  if (!req.is(FORM_TYPE)) return undefined;
  return take(formParams(req.body, ['access_token']), ['access_token']).access_token;
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
