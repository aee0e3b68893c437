import type { Request } from 'express';
import { invalidRequest } from './oauth-error';

export type Params = Record<string, unknown>;

/**
 * One parameter as a string, undefined when absent. A parameter sent twice (an array) or as a
 * nested object is malformed: RFC 6749 sections 3.1 and 3.2 forbid repeating parameters.
 */
export function param(params: Params, name: string): string | undefined {
  const value = params[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string')
    throw invalidRequest(`The ${name} parameter is repeated or malformed`);
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
 * or undefined. Sent twice, it is refused like any repeated parameter (`invalid_request`).
 */
export function formAccessToken(req: Request): string | undefined {
  if (!req.is('application/x-www-form-urlencoded')) return undefined;
  return param((req.body ?? {}) as Params, 'access_token');
}

/** RFC 6749 section 4.1.3 (and RFC 7009 section 2.1, RFC 7662 section 2.1): form-encoded only. */
export function formBody(req: Request): Params {
  if (!req.is('application/x-www-form-urlencoded')) {
    throw invalidRequest('Content-Type must be application/x-www-form-urlencoded');
  }
  return (req.body ?? {}) as Params;
}
