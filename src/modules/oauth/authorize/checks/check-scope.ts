import { DEFAULT_SCOPE, formatScope, knownScopes } from '../../protocol/scopes';
import { type Params } from '../../../../common/http/params';
import { param } from '../../protocol/params';

/**
 * The scope to grant: the requested scopes this service defines (others are ignored), or
 * DEFAULT_SCOPE when the request names none of them or omits scope (RFC 6749 section 3.3).
 */
export function checkScope(params: Params): string {
  const scopes = knownScopes(param(params, 'scope'));
  return formatScope(scopes.length > 0 ? scopes : [DEFAULT_SCOPE]);
}
