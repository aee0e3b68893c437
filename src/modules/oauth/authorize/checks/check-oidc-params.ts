import { OAuthError } from '../../protocol/oauth-error';
import { scopeUnion, splitScope } from '../../protocol/scopes';
import { checkClaimsParameter } from './check-claims-parameter';
import type { InteractivePrompt } from './check-prompt';
import { MAX_STATE_LENGTH } from './check-state';
import { type Params } from '../../../../common/http/params';
import { nonEmptyParam, param } from '../../protocol/params';

/** The OpenID Connect parameters of an authorization request (OIDC Core 3.1.2.1). */
export interface OidcParams {
  nonce?: string;
  /** Seconds; the session's sign-in must be at most this old (OIDC Core 3.1.2.1). */
  maxAge?: number;
  /** prompt values besides none (check-prompt.ts). */
  prompts?: InteractivePrompt[];
  /** acr_values, or `acr` in the claims parameter, was sent: the id_token carries `acr`. */
  acr?: true;
}

// max_age is a count of seconds; ten digits reach past 300 years and keep Date arithmetic exact.
const MAX_AGE = /^\d{1,10}$/;

/**
 * nonce, max_age, claims and acr_values, read only for an OpenID Connect request (`openid` in
 * scope): without it they are not this request's parameters, and such clients see what they saw
 * before (docs/oidc.md). The nonce travels sealed in the login URL like `state`, hence the same
 * length bound. The scope comes back widened by the claims parameter (check-claims-parameter.ts).
 */
export function checkOidcParams(params: Params, scope: string): OidcParams & { scope: string } {
  if (!splitScope(scope).includes('openid')) return { scope };
  const nonce = param(params, 'nonce');
  const maxAge = param(params, 'max_age');
  if (nonce !== undefined && nonce.length > MAX_STATE_LENGTH) {
    throw new OAuthError(
      'invalid_request',
      `The nonce parameter must be at most ${MAX_STATE_LENGTH} characters`,
    );
  }
  if (maxAge !== undefined && !MAX_AGE.test(maxAge)) {
    throw new OAuthError('invalid_request', 'max_age must be a non-negative integer of seconds');
  }
  const claims = checkClaimsParameter(params, scope);
  const acr = claims.acr || nonEmptyParam(params, 'acr_values') !== undefined;
  return {
    // OIDC Core 5.5: the claims requested are released through the scope that holds them.
    scope: scopeUnion(scope, claims.scopes.join(' ')),
    ...(nonce === undefined || nonce === '' ? {} : { nonce }),
    ...(maxAge === undefined ? {} : { maxAge: Number(maxAge) }),
    ...(acr && { acr: true as const }),
  };
}

/**
 * OIDC Core 3.1.2.1: with max_age, a sign-in older than that many seconds must be repeated.
 * Whole seconds, as auth_time is expressed.
 */
export function signInTooOld(maxAge: number | undefined, authTime: Date, now: Date): boolean {
  if (maxAge === undefined) return false;
  return Math.floor(now.getTime() / 1000) - Math.floor(authTime.getTime() / 1000) > maxAge;
}
