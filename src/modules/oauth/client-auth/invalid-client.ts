import { OAuthError } from '../protocol/oauth-error';

/** RFC 6749 section 5.2: invalid_client is 401 with a challenge for the scheme the client may use. */
export const invalidClient = (description: string): OAuthError =>
  new OAuthError('invalid_client', description, 'Basic realm="oauth2", charset="UTF-8"');
