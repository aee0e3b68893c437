import { msg } from '../../../common/i18n/i18n';
import type { ErrorPage, ShownOnPage } from '../../pages/page-error';

/**
 * Error codes of RFC 6749 sections 4.1.2.1 and 5.2, RFC 6750 section 3.1, OIDC silent auth
 * (docs/contract/oauth.md#silent-authentication) and RFC 9449 sections 5, 7.1 and 8 (DPoP).
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'server_error'
  | 'temporarily_unavailable'
  | 'login_required'
  | 'consent_required'
  | 'interaction_required'
  | 'request_not_supported'
  | 'request_uri_not_supported'
  | 'invalid_token'
  | 'insufficient_scope'
  | 'invalid_dpop_proof'
  | 'use_dpop_nonce'
  // RFC 8628 section 3.5: the device access token request's own.
  | 'authorization_pending'
  | 'slow_down'
  | 'expired_token';

/**
 * The one place an OAuth error code gets its HTTP status: RFC 6749 section 5.2 (400, and 401
 * for invalid_client), RFC 6750 section 3.1 (invalid_token 401, insufficient_scope 403), 500
 * and 503 for server_error and temporarily_unavailable (docs/oauth.md). The codes sent on a
 * redirect (RFC 6749 section 4.1.2.1, OIDC silent authentication) never use theirs.
 */
export const OAUTH_ERROR_STATUS: Readonly<Record<OAuthErrorCode, number>> = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  unsupported_response_type: 400,
  invalid_scope: 400,
  access_denied: 400,
  server_error: 500,
  temporarily_unavailable: 503,
  login_required: 400,
  consent_required: 400,
  interaction_required: 400,
  request_not_supported: 400,
  request_uri_not_supported: 400,
  invalid_token: 401,
  insufficient_scope: 403,
  // At the token endpoint; a resource answers them 401 (dpop/dpop-challenge.ts).
  invalid_dpop_proof: 400,
  use_dpop_nonce: 400,
  authorization_pending: 400,
  slow_down: 400,
  expired_token: 400,
};

/**
 * An OAuth protocol error: rendered as `{error, error_description}` JSON by the token and
 * user endpoints, or as query parameters on a redirect to a validated redirect_uri.
 * The description is public text; it never echoes secrets or internal detail.
 */
export class OAuthError extends Error implements ShownOnPage {
  readonly status: number;

  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    /** Value of the WWW-Authenticate header (RFC 6749 section 5.2, RFC 6750 section 3). */
    readonly wwwAuthenticate?: string,
    /** A resource's answer (RFC 6750 section 3.1, RFC 9449 section 7.1): its status and nonce. */
    answer: { status?: number; dpopNonce?: string } = {},
  ) {
    super(description);
    this.name = 'OAuthError';
    this.status = answer.status ?? OAUTH_ERROR_STATUS[error];
    this.dpopNonce = answer.dpopNonce;
  }

  /** The `DPoP-Nonce` header of the answer (RFC 9449 sections 8 and 9), if any. */
  readonly dpopNonce: string | undefined;

  /** On a page (a login or consent form's request): the protocol's own words, in English as in
   * its API answers, under a translated title; always 400, the page being the browser's. */
  asPage(): ErrorPage {
    return { status: 400, title: msg('errors.invalidRequestTitle'), message: this.description };
  }
}

/**
 * invalid_request for a request refused before it reached a handler (body reader, framework):
 * it keeps the refusal's status, e.g. 413 for an oversized body (docs/oauth.md), which RFC 6749
 * section 5.2 allows ("400 unless otherwise specified"). The only OAuth error with a status of
 * its own.
 */
export class RefusedRequestError extends OAuthError {
  constructor(
    description: string,
    override readonly status: number,
  ) {
    super('invalid_request', description);
  }
}

export const invalidGrant = (description: string): OAuthError =>
  new OAuthError('invalid_grant', description);
export const invalidRequest = (description: string): OAuthError =>
  new OAuthError('invalid_request', description);
