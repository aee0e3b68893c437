import type { Request } from 'express';
import { resourceDpopError } from '../dpop/dpop-challenge';
import { OAuthError } from '../protocol/oauth-error';

// How userinfo and user emails read the access token a request presents (RFC 6750 sections 2.1,
// 2.2 and 3; RFC 9449 section 7.1) and the answers that name what is wrong with it.

export const REALM = 'Bearer realm="oauth2"';
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const DPOP = /^DPoP +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * The request's one Authorization header. Node keeps the first of several; several are refused
 * as `invalid_request` (RFC 6750 section 3.1: more than one method), so no proxy or client can be
 * fooled about which one was used.
 */
export function authorizationOf(req: Request): string | undefined {
  const headers = req.headersDistinct.authorization ?? [];
  if (headers.length > 1) {
    const description = 'Send one Authorization header';
    throw new OAuthError(
      'invalid_request',
      description,
      `${REALM}, error="invalid_request", error_description="${description}"`,
    );
  }
  return headers[0];
}

/** An access token as the request presented it: as a bearer token, or under the DPoP scheme. */
export interface PresentedToken {
  token: string;
  scheme: 'Bearer' | 'DPoP';
}

/**
 * The access token of a request: from the Authorization header (RFC 6750 section 2.1; RFC 9449
 * section 7.1 for the DPoP scheme) or from the `access_token` form parameter of a POST (section
 * 2.2, `formToken`, a bearer token; an empty one counts as not sent). Both at once is
 * `invalid_request` (section 3.1: more than one method); neither is the challenge without an
 * error code (section 3.1).
 */
export function presentedToken(
  authorization: string | undefined,
  formToken: string | undefined,
): PresentedToken {
  const header = authorization !== undefined && authorization.trim() !== '';
  const form = formToken !== undefined && formToken !== '';
  if (header && form) {
    const description = 'Send the access token in the Authorization header or the form, not both';
    throw new OAuthError(
      'invalid_request',
      description,
      `${REALM}, error="invalid_request", error_description="${description}"`,
    );
  }
  if (form) return { token: formToken, scheme: 'Bearer' };
  if (!header) throw new OAuthError('invalid_token', 'An access token is required', REALM);
  const bearer = BEARER.exec(authorization)?.[1];
  if (bearer !== undefined) return { token: bearer, scheme: 'Bearer' };
  const dpop = DPOP.exec(authorization)?.[1];
  if (dpop !== undefined) return { token: dpop, scheme: 'DPoP' };
  throw invalidToken('The Authorization header must be Bearer <access token>');
}

/**
 * A token found, but presented under the wrong scheme or with another key's proof (RFC 9449
 * section 7.2): `bound` is the token's key (null: a bearer token), `proven` the proof's (null: no
 * proof, the bearer scheme).
 */
export function bindingMismatch(bound: string | null, proven: string | null): OAuthError {
  if (proven === null) {
    return resourceDpopError(
      'invalid_token',
      'The access token is bound to a DPoP key: send it under the DPoP scheme with a proof',
    );
  }
  if (bound === null) {
    return resourceDpopError(
      'invalid_token',
      'The access token is not DPoP-bound: send it under the Bearer scheme',
    );
  }
  return resourceDpopError(
    'invalid_token',
    'The DPoP proof is not signed by the key the access token is bound to',
  );
}

export function invalidToken(description: string): OAuthError {
  return new OAuthError(
    'invalid_token',
    description,
    `${REALM}, error="invalid_token", error_description="${description}"`,
  );
}
