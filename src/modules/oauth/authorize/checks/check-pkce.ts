import type { Application } from '../../../applications/application.entity';
import { OAuthError } from '../../protocol/oauth-error';
import { type Params } from '../../../../common/http/params';
import { param } from '../../protocol/params';

// RFC 7636 section 4.2: an S256 challenge is BASE64URL of a SHA-256 digest, exactly 43 characters.
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

/**
 * PKCE (RFC 7636, docs/contract/oauth.md#pkce): S256 only; mandatory for `none` clients, optional
 * for `secret` ones. Returns the challenge to bind to the code, or null.
 */
export function checkPkce(params: Params, application: Application): string | null {
  const challenge = param(params, 'code_challenge');
  const method = param(params, 'code_challenge_method');
  if (challenge === undefined || challenge === '') {
    if (application.clientAuthMethod === 'none') {
      throw new OAuthError('invalid_request', 'Public clients must send a PKCE code_challenge');
    }
    // FAPI 2.0 section 5.3.2.2: PKCE with S256 for every client of the profile.
    if (application.securityProfile === 'fapi2') {
      throw new OAuthError('invalid_request', 'This client must send a PKCE code_challenge');
    }
    if (method !== undefined) {
      throw new OAuthError('invalid_request', 'code_challenge_method without code_challenge');
    }
    return null;
  }
  // RFC 7636 defaults a missing method to `plain`, which is not supported here.
  if (method !== 'S256') {
    throw new OAuthError('invalid_request', 'code_challenge_method must be S256');
  }
  if (!S256_CHALLENGE.test(challenge)) {
    throw new OAuthError(
      'invalid_request',
      'code_challenge must be 43 base64url characters (BASE64URL(SHA256(code_verifier)))',
    );
  }
  return challenge;
}
