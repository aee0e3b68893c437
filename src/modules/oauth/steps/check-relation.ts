import { OAuthError } from '../oauth-error';

/** The relation columns read together with the code or refresh token (one round trip). */
export interface RelationState {
  relationEnabled: boolean | null;
  grantedScope: string | null;
}

/**
 * Tokens are issued or refreshed only while the user–application relation is enabled and the
 * authorization stands (spec section 3: PATCH enabled=false and POST revoke end both).
 */
export function checkRelation(relation: RelationState): OAuthError | null {
  if (relation.relationEnabled !== true) {
    return new OAuthError('invalid_grant', "The user's access to this application is disabled");
  }
  if (relation.grantedScope === null) {
    return new OAuthError('invalid_grant', 'The authorization has been revoked');
  }
  return null;
}
