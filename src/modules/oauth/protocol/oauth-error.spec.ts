import { OAUTH_ERROR_STATUS, OAuthError, RefusedRequestError } from './oauth-error';

describe('OAUTH_ERROR_STATUS', () => {
  it('gives the token and userinfo errors their RFC 6749 section 5.2 / RFC 6750 section 3.1 status', () => {
    expect(OAUTH_ERROR_STATUS).toMatchObject({
      invalid_request: 400,
      invalid_client: 401,
      invalid_grant: 400,
      unauthorized_client: 400,
      unsupported_grant_type: 400,
      invalid_scope: 400,
      invalid_token: 401,
      insufficient_scope: 403,
      server_error: 500,
      temporarily_unavailable: 503,
    });
  });

  it('is where an OAuthError takes its status from', () => {
    const error = new OAuthError('invalid_client', 'Unknown client', 'Basic realm="oauth2"');
    expect([error.status, error.wwwAuthenticate]).toEqual([401, 'Basic realm="oauth2"']);
  });

  it('lets only a refused request keep the status of the refusal', () => {
    const error = new RefusedRequestError('The request body is too large', 413);
    expect([error.error, error.status]).toEqual(['invalid_request', 413]);
    expect(error).toBeInstanceOf(OAuthError);
  });
});
