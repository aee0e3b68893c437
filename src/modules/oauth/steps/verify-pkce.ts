import { OAuthError } from '../oauth-error';
import { constantTimeEqual } from '../../../common/crypto/constant-time';
import { s256 } from '../opaque-token';

// RFC 7636 section 4.1: 43 to 128 unreserved characters.
export const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/**
 * RFC 7636 section 4.6: the verifier must hash to the challenge bound to the code. A verifier for
 * a code issued without a challenge is refused too (RFC 9700 section 2.1.1, PKCE downgrade).
 * Runs after the code is consumed, so a wrong verifier spends the code.
 */
export function verifyPkce(
  challenge: string | null,
  verifier: string | undefined,
): OAuthError | null {
  if (challenge === null) {
    return verifier === undefined
      ? null
      : new OAuthError('invalid_grant', 'The code was issued without a PKCE challenge');
  }
  if (verifier === undefined)
    return new OAuthError('invalid_grant', 'code_verifier is required for this code');
  return constantTimeEqual(s256(verifier), challenge)
    ? null
    : new OAuthError('invalid_grant', 'The code_verifier does not match the code_challenge');
}
