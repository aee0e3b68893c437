import type { EntityManager } from 'typeorm';
import type { Application } from '../../applications/application.entity';
import type { EventsService } from '../../events/events.service';
import { OAuthError } from '../oauth-error';
import { hashToken } from '../opaque-token';

export interface RefreshableToken {
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
}

const invalid = (description: string): OAuthError => new OAuthError('invalid_grant', description);

/**
 * Finds and locks the presented refresh token (RFC 9700 section 4.14.2). A token that was already
 * rotated is a replay: the whole family is revoked and the request fails.
 */
export async function lockRefreshToken(
  manager: EntityManager,
  refreshToken: string,
  client: Application,
  now: Date,
  events: EventsService,
): Promise<RefreshableToken | OAuthError> {
  const rows = (await manager.query(
    `SELECT id, application_id, user_id, scope, family_id, code_id, refresh_expires_at, revoked_at, rotated_at
     FROM oauth_tokens WHERE refresh_token_hash = $1 FOR UPDATE`,
    [hashToken(refreshToken)],
  )) as TokenRow[];
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
  };
}

async function revokeFamily(
  manager: EntityManager,
  row: TokenRow,
  now: Date,
  events: EventsService,
): Promise<void> {
  const [, revoked] = (await manager.query(
    'UPDATE oauth_tokens SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL',
    [row.family_id, now],
  )) as [unknown, number];
  if (revoked === 0) return;
  await events.record(manager, {
    applicationId: row.application_id,
    userId: String(row.user_id),
    eventType: 'token_revoked',
    scope: row.scope,
    description: `refresh token reused: ${revoked} token(s) of the family revoked`,
  });
}

/** Retires the refresh token once its successor is about to be issued in the same transaction. */
export async function markRotated(
  manager: EntityManager,
  token: RefreshableToken,
  now: Date,
): Promise<void> {
  await manager.query('UPDATE oauth_tokens SET rotated_at = $2 WHERE id = $1', [token.id, now]);
}
