import type { TokenKind } from '../../tokens/token-sql';
import { CLIENT_AUTH_PARAMETERS } from '../client-auth/client-credentials';
import { take, type FormParams } from '../protocol/params';
import { invalidRequest } from '../protocol/oauth-error';

/** The presented-token parameters (RFC 7009 section 2.1, RFC 7662 section 2.1). */
const PRESENTED_TOKEN_PARAMETERS = ['token', 'token_type_hint'] as const;

/**
 * The form parameters of revocation and introspection: what the controller reads of the body
 * (protocol/params.ts), once; any other parameter is ignored.
 */
export const TOKEN_MANAGEMENT_PARAMETERS = [
  ...PRESENTED_TOKEN_PARAMETERS,
  ...CLIENT_AUTH_PARAMETERS,
] as const;
export type TokenManagementParameter = (typeof TOKEN_MANAGEMENT_PARAMETERS)[number];

/** The presented token of a revocation or introspection request, and where to look for it first. */
export interface PresentedToken {
  token: string;
  /** Both kinds, the hinted one first. */
  lookupOrder: TokenKind[];
}

/**
 * Reads `token` (required: RFC 7009 section 2.1, RFC 7662 section 2.1) and `token_type_hint`,
 * after client authentication. The hint only orders the search: a wrong one is still found as
 * the other kind ("MUST extend its search across all of its supported token types", RFC 7009
 * section 2.1), and an unknown value is no hint (RFC 7662 section 2.1 lets the server ignore it).
 */
export function readPresentedToken(params: FormParams<TokenManagementParameter>): PresentedToken {
  const { token, token_type_hint: hint } = take(params, PRESENTED_TOKEN_PARAMETERS);
  if (token === undefined) throw invalidRequest('token is required');
  return {
    token,
    lookupOrder: hint === 'refresh_token' ? ['refresh', 'access'] : ['access', 'refresh'],
  };
}
