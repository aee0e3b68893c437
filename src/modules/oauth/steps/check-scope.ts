import { OAuthError } from '../oauth-error';
import { OAUTH_SCOPES, formatScope, parseScope } from '../scopes';
import { param, type Params } from './params';

/** scope is required (spec section 4.2) and every name must be a supported scope (scopes.ts). */
export function checkScope(params: Params): string {
  const raw = param(params, 'scope');
  const scopes = raw === undefined ? null : parseScope(raw);
  if (scopes === null) {
    throw new OAuthError(
      'invalid_scope',
      `The scope must be a space-separated list of: ${OAUTH_SCOPES.join(', ')}`,
    );
  }
  return formatScope(scopes);
}
