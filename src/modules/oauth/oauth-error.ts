/** Error codes of RFC 6749 sections 4.1.2.1 and 5.2, RFC 6750 section 3.1 and OIDC silent auth (spec section 7). */
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
  | 'invalid_token'
  | 'insufficient_scope';

/**
 * An OAuth protocol error: rendered as `{error, error_description}` JSON by the token and
 * user endpoints, or as query parameters on a redirect to a validated redirect_uri.
 * The description is public text; it never echoes secrets or internal detail.
 */
export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status = 400,
    /** Value of the WWW-Authenticate header (RFC 6749 section 5.2, RFC 6750 section 3). */
    readonly wwwAuthenticate?: string,
  ) {
    super(description);
    this.name = 'OAuthError';
  }
}

/**
 * A failure of the authorization endpoint before the redirect_uri is validated, or of a login
 * or consent page: shown as an HTML page, never redirected (RFC 6749 section 4.1.2.1).
 */
export class PageError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    message: string,
  ) {
    super(message);
    this.name = 'PageError';
  }
}

export const invalidGrant = (description: string): OAuthError =>
  new OAuthError('invalid_grant', description);
export const invalidRequest = (description: string): OAuthError =>
  new OAuthError('invalid_request', description);
