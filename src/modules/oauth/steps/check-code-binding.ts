import { OAuthError } from '../oauth-error';
import type { ConsumedCode } from './consume-code';

/**
 * A code is bound to the client it was issued to, to the exact redirect_uri of the authorization
 * request (RFC 6749 section 4.1.3) and to its short lifetime.
 */
export function checkCodeBinding(
  code: ConsumedCode,
  client: { id: number },
  redirectUri: string,
  now: Date,
): OAuthError | null {
  if (code.applicationId !== client.id) {
    return new OAuthError('invalid_grant', 'The authorization code was issued to another client');
  }
  if (code.expiresAt.getTime() <= now.getTime()) {
    return new OAuthError('invalid_grant', 'The authorization code has expired');
  }
  if (code.redirectUri !== redirectUri) {
    return new OAuthError('invalid_grant', 'redirect_uri does not match the authorization request');
  }
  return null;
}
