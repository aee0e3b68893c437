import { OAuthError } from '../../protocol/oauth-error';
import type { TokenStep } from './step';

// A code is bound to the client it was issued to, to the exact redirect_uri of the authorization
// request (RFC 6749 section 4.1.3) and to its short lifetime. Three rules, checked in this order;
// in the exchange statement the consumed code is `c` and the presenting client `cl`.

export const codeIssuedToClient: TokenStep<object, unknown> = {
  name: 'code_client',
  holds: 'c.application_id = cl.id',
  failure: () =>
    new OAuthError('invalid_grant', 'The authorization code was issued to another client'),
};

export const codeNotExpired: TokenStep<object, unknown> = {
  name: 'code_expiry',
  holds: 'c.expires_at > :now',
  failure: () => new OAuthError('invalid_grant', 'The authorization code has expired'),
};

export const codeRedirectUriMatches: TokenStep<object, unknown> = {
  name: 'code_redirect_uri',
  holds: 'c.redirect_uri = :redirectUri',
  failure: () =>
    new OAuthError('invalid_grant', 'redirect_uri does not match the authorization request'),
};
