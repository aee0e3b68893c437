import type { Request } from 'express';
import { fieldOf, FORM_TYPE, type Params } from '../../../common/http/params';
import { invalidRequest, type OAuthError } from './oauth-error';

/**
 * The one reader of request parameters (a query string or a form, as the body reader parsed
 * them: src/common/http/request-body.ts). Two shapes over one rule, fieldOf:
 * - formParams / readForm: the token, revocation and introspection forms, read once at the edge
 *   into the endpoint's own parameters (FormParams), each refused where the chain reads it;
 * - param / nonEmptyParam: the authorization request and the browser pages, one parameter at a
 *   time, refused when read.
 * Both read each parameter by the one rule of common/http/params.ts (fieldOf). Either way a
 * parameter sent twice (an array), structured (`a[b]=…`, an object) or holding a
 * control character is `invalid_request` with one wording (repeatedOrMalformed); only own
 * properties are read.
 */

/**
 * The error of a parameter sent twice, structured or holding a control character; the one
 * wording of every OAuth endpoint and page.
 */
export const repeatedOrMalformed = (name: string): OAuthError =>
  invalidRequest(`The ${name} parameter is repeated or malformed`);

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
   * reader turns into an object), or holding a control character (fieldOf). RFC 6749 section
   * 3.2 forbids repeating them; each is refused (`invalid_request`) where the chain first reads
   * it, not here: see repeatedParameter. (Typed as names, so that the parameters of a wider
   * allow list can be handed to a step that reads fewer.)
   */
  readonly repeated: readonly string[];
  /**
   * Every parameter of the allow list the body holds, whatever its value (empty, repeated,
   * structured). No step reads it: the token endpoint's metric labels a `grant_type` sent but not
   * served, an empty one included, `unsupported`, and one not sent `missing` (token-metrics.ts).
   */
  readonly sent: readonly string[];
}

/** The parameters `names` of a body parsed by the body reader (src/common/http/request-body.ts). */
export function formParams<P extends string>(body: unknown, names: readonly P[]): FormParams<P> {
  const fields = typeof body === 'object' && body !== null ? (body as Params) : {};
  const values: Partial<Record<P, string>> = {};
  const repeated: string[] = [];
  const sent: string[] = [];
  for (const name of names) {
    const field = fieldOf(fields, name);
    if (field.kind !== 'absent') sent.push(name);
    if (field.kind === 'malformed') repeated.push(name);
    else if (field.kind === 'value' && field.value !== '') values[name] = field.value;
  }
  return Object.freeze({
    values: Object.freeze(values),
    repeated: Object.freeze(repeated),
    sent: Object.freeze(sent),
  });
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

/**
 * One parameter as a string (the empty string included), undefined when absent; repeated,
 * structured or holding a control character, it is refused (repeatedOrMalformed), as by take.
 */
export function param(params: Params, name: string): string | undefined {
  const field = fieldOf(params, name);
  if (field.kind === 'malformed') throw repeatedOrMalformed(name);
  return field.kind === 'value' ? field.value : undefined;
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
