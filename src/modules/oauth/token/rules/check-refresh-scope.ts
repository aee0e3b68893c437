import { OAuthError } from '../../protocol/oauth-error';
import type { TokenStep } from './step';

/**
 * RFC 6749 section 6: a refresh may narrow the scope, never widen it. `:scope` is the requested
 * scope in canonical form, or NULL to keep the token's (`t`) scope.
 */
export const refreshScopeNotWidened: TokenStep<object, unknown> = {
  name: 'refresh_scope',
  holds:
    "(:scope::text IS NULL OR string_to_array(:scope::text, ' ') <@ string_to_array(t.scope, ' '))",
  failure: () => new OAuthError('invalid_scope', 'The requested scope exceeds the original grant'),
};
