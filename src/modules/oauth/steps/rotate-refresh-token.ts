import type { EntityManager } from 'typeorm';
import type { EventsService } from '../../events/events.service';
import { OAuthError } from '../oauth-error';
import { hashToken } from '../opaque-token';
import type { RelationState } from './check-relation';

export interface RefreshableToken extends RelationState {
  id: string;
  userId: string;
  scope: string;
  familyId: string;
  codeId: string | null;
}

interface TokenRow {
  id: string;
  application_id: number;
  user_id: string;
  scope: string;
  family_id: string;
  code_id: string | null;
  refresh_expires_at: Date | null;
  revoked_at: Date | null;
  rotated_at: Date | null;
  relation_enabled: boolean | null;
  granted_scope: string | null;
}

const invalid = (description: string): OAuthError => new OAuthError('invalid_grant', description);

/**
 * Finds and locks the presented refresh token, with its relation (RFC 9700 section 4.14.2). A
 * token that was already rotated is a replay: the whole family is revoked and the request fails.
 * The successor is issued by TokenIssuer, which marks this one rotated in the same statement.
 */
export async function lockRefreshToken(
  manager: EntityManager,
  refreshToken: string,
  client: { id: number },
  now: Date,
  events: EventsService,
): Promise<RefreshableToken | OAuthError> {
  const rows = await manager.query<TokenRow[]>(
    `SELECT t.id, t.application_id, t.user_id, t.scope, t.family_id, t.code_id, t.refresh_expires_at,
            t.revoked_at, t.rotated_at, au.enabled AS relation_enabled, au.granted_scope
     FROM oauth_tokens t
     LEFT JOIN app_users au ON au.application_id = t.application_id AND au.user_id = t.user_id
     WHERE t.refresh_token_hash = $1 FOR UPDATE OF t`,
    [hashToken(refreshToken)],
  );
  const row = rows[0];
  // Bound to its client: another client's token is treated as unknown (RFC 6749 section 6).
  if (!row || row.application_id !== client.id) return invalid('The refresh token is invalid');
  if (row.revoked_at !== null) return invalid('The refresh token has been revoked');
  if (row.rotated_at !== null) {
    await revokeFamily(manager, row, now, events);
    return invalid('The refresh token was already used; its token family has been revoked');
  }
  if (
    row.refresh_expires_at === null ||
    new Date(row.refresh_expires_at).getTime() <= now.getTime()
  ) {
    return invalid('The refresh token has expired');
  }
  return {
    id: String(row.id),
    userId: String(row.user_id),
    scope: row.scope,
    familyId: row.family_id,
    codeId: row.code_id === null ? null : String(row.code_id),
    relationEnabled: row.relation_enabled,
    grantedScope: row.granted_scope,
  };
}

async function revokeFamily(
  manager: EntityManager,
  row: TokenRow,
  now: Date,
  events: EventsService,
): Promise<void> {
  const [, revoked] = await manager.query<[unknown, number]>(
    'UPDATE oauth_tokens SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL',
    [row.family_id, now],
  );
  if (revoked === 0) return;
  await events.record(manager, {
    applicationId: row.application_id,
    userId: String(row.user_id),
    eventType: 'token_revoked',
    scope: row.scope,
    description: `refresh token reused: ${revoked} token(s) of the family revoked`,
  });
}
