import type { EntityManager } from 'typeorm';
import { OAuthError } from '../oauth-error';

/**
 * Tokens are issued or refreshed only while the user–application relation is enabled and the
 * authorization stands (spec section 3: PATCH enabled=false and POST revoke end both).
 */
export async function checkRelation(
  manager: EntityManager,
  applicationId: number,
  userId: string,
): Promise<OAuthError | null> {
  const rows = (await manager.query(
    'SELECT enabled, granted_scope FROM app_users WHERE application_id = $1 AND user_id = $2',
    [applicationId, userId],
  )) as { enabled: boolean; granted_scope: string | null }[];
  const relation = rows[0];
  if (!relation || !relation.enabled) {
    return new OAuthError('invalid_grant', "The user's access to this application is disabled");
  }
  if (relation.granted_scope === null) {
    return new OAuthError('invalid_grant', 'The authorization has been revoked');
  }
  return null;
}
