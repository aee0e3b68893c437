import { OAuthError } from '../../protocol/oauth-error';
import type { TokenStep } from './step';

// RFC 7636 section 4.1: 43 to 128 unreserved characters.
export const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/**
 * RFC 7636 section 4.6: the verifier must hash to the challenge bound to the code (`:verifierHash`
 * is BASE64URL(SHA256(code_verifier)), or NULL when none was sent). A verifier for a code issued
 * without a challenge is refused too (RFC 9700 section 2.1.1, PKCE downgrade). Checked after the
 * code is consumed, so a wrong verifier spends the code.
 */
export const verifyPkce: TokenStep<
  { code_challenge: string | null },
  { verifier: string | undefined }
> = {
  name: 'pkce',
  holds: 'c.code_challenge IS NOT DISTINCT FROM :verifierHash::varchar',
  failure: (code, { verifier }) => {
    if (code.code_challenge === null) {
      return new OAuthError('invalid_grant', 'The code was issued without a PKCE challenge');
    }
    if (verifier === undefined) {
      return new OAuthError('invalid_grant', 'code_verifier is required for this code');
    }
    return new OAuthError('invalid_grant', 'The code_verifier does not match the code_challenge');
  },
};
