import type { Request } from 'express';
import { hasControlCharacter } from '../../../common/validation/control-characters';
import { invalidRequest, type OAuthError } from './oauth-error';

/**
 * The parameters of one form POST to an OAuth endpoint, read once at the edge (as oidc-provider's
 * `ctx.oidc.params`, lib/helpers/params.js) and never again from the body. Only the endpoint's
 * own parameters (its allow list) are kept: any other name is invisible to every later step.
 * Frozen: no step can change what another one reads.
 */
export interface FormParams<P extends string> {
  /**
   * Each parameter sent once with a value. An empty value counts as omitted (RFC 6749 section
   * 3.1: "parameters sent without a value MUST be treated as if they were omitted").
   */
  readonly values: Readonly<Partial<Record<P, string>>>;
  /**
   * The parameters sent more than once, with a structured value (`a[b]=…`, which the body
   * reader turns into an object), or holding a control character (NUL and the others of
   * common/validation/control-characters.ts: no parameter of RFC 6749, 7009 or 7662 has one).
   * RFC 6749 section 3.2 forbids repeating them; each is refused
   * (`invalid_request`) where the chain first reads it, not here: see repeatedParameter. (Typed
   * as names, so that the parameters of a wider allow list can be handed to a step that reads
   * fewer.)
   */
  readonly repeated: readonly string[];
}

/** RFC 6749 section 4.1.3 (and RFC 7009 section 2.1, RFC 7662 section 2.1): forms only. */
export const FORM_TYPE = 'application/x-www-form-urlencoded';

/** The parameters `names` of a body parsed by the body reader (src/common/http/request-body.ts). */
export function formParams<P extends string>(body: unknown, names: readonly P[]): FormParams<P> {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const values: Partial<Record<P, string>> = {};
  const repeated: string[] = [];
  for (const name of names) {
    const value = Object.hasOwn(fields, name) ? fields[name] : undefined;
    if (value === undefined) continue;
    if (typeof value !== 'string' || hasControlCharacter(value)) repeated.push(name);
    else if (value !== '') values[name] = value;
  }
  return Object.freeze({ values: Object.freeze(values), repeated: Object.freeze(repeated) });
}

/**
 * The form of an OAuth endpoint's POST: `invalid_request` unless its media type is a form (the
 * body reader has already refused other non-empty bodies on these paths; this also covers a body
 * sent without a Content-Type).
 */
export function readForm<P extends string>(req: Request, names: readonly P[]): FormParams<P> {
  if (!req.is(FORM_TYPE)) throw invalidRequest(`Content-Type must be ${FORM_TYPE}`);
  return formParams(req.body, names);
}

/**
 * The error of a parameter sent twice, structured or holding a control character; the one
 * wording of every OAuth endpoint.
 */
export const repeatedOrMalformed = (name: string): OAuthError =>
  invalidRequest(`The ${name} parameter is repeated or malformed`);

/**
 * oidc-provider's reject_dupes step for the parameters a step is about to read: the error naming
 * the first of `names` (in their order) that was repeated, or undefined when none was.
 */
export function repeatedParameter<P extends string>(
  params: FormParams<P>,
  names: readonly P[],
): OAuthError | undefined {
  const name = names.find((n) => params.repeated.includes(n));
  return name === undefined ? undefined : repeatedOrMalformed(name);
}

/** The values of `names`, after refusing any of them that was repeated (repeatedParameter). */
export function take<P extends string, N extends P>(
  params: FormParams<P>,
  names: readonly N[],
): Readonly<Partial<Record<N, string>>> {
  const repeated = repeatedParameter(params, names);
  if (repeated) throw repeated;
  return params.values;
}
