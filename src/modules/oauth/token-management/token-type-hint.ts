import type { TokenKind } from '../../tokens/token-sql';
import { invalidRequest } from '../protocol/oauth-error';
import { nonEmptyParam, param, type Params } from '../protocol/params';

/** The presented token of a revocation or introspection request, and where to look for it first. */
export interface PresentedToken {
  token: string;
  /** Both kinds, the hinted one first. */
  lookupOrder: TokenKind[];
}

/**
 * Reads `token` (required: RFC 7009 section 2.1, RFC 7662 section 2.1) and `token_type_hint`.
 * The hint only orders the search: a wrong one is still found as the other kind ("MUST extend
 * its search across all of its supported token types", RFC 7009 section 2.1), and an unknown
 * value is no hint (RFC 7662 section 2.1 lets the server ignore it).
 */
export function readPresentedToken(body: Params): PresentedToken {
  const token = nonEmptyParam(body, 'token');
  if (token === undefined) throw invalidRequest('token is required');
  const hint = param(body, 'token_type_hint');
  return {
    token,
    lookupOrder: hint === 'refresh_token' ? ['refresh', 'access'] : ['access', 'refresh'],
  };
}
