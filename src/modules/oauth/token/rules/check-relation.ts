import { relationUsable } from '../../../users/relation-sql';
import { OAuthError } from '../../protocol/oauth-error';
import type { TokenStep } from './step';

/** The relation columns read together with the code or refresh token (alias `au`). */
export interface RelationState {
  relation_enabled: boolean | null;
  granted_scope: string | null;
}

/**
 * Tokens are issued or refreshed only while the user–application relation is enabled and the
 * authorization stands (docs/contract/users.md#states-of-a-user-in-an-application: PATCH enabled=false and POST revoke end both). The
 * condition is the users module's, which owns the relation.
 */
export const checkRelation: TokenStep<RelationState, unknown> = {
  name: 'relation',
  holds: relationUsable('au'),
  failure: (relation) =>
    relation.relation_enabled !== true
      ? new OAuthError('invalid_grant', "The user's access to this application is disabled")
      : new OAuthError('invalid_grant', 'The authorization has been revoked'),
};
