import type { DataSource, EntityManager } from 'typeorm';
import type { EventsService } from '../../events/events.service';
import { OAuthError } from '../oauth-error';
import { sha256Hex } from '../../../common/crypto/hash';
import type { MintedTokens } from '../token-issuer';
import type { RelationState } from './check-relation';
import { preparedQuery } from '../../../database/prepared-query';
import {
  CLIENT_CTE,
  clientKind,
  clientParam,
  type ClientKind,
  type RedeemingClient,
} from './redeeming-client';

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

export interface Rotation {
  refreshToken: string;
  client: RedeemingClient;
  /** The requested scope in canonical form, or null to keep the token's scope. */
  scope: string | null;
  tokens: MintedTokens;
}

// The WHERE clause is every condition lockRefreshToken, scopeCovers and checkRelation check. A
// concurrent refresh of the same token waits for the row lock and then no longer matches
// (rotated_at is set), so it issues nothing and goes on to the replay handling.
const rotateStatement = (kind: ClientKind): string =>
  `WITH ${CLIENT_CTE[kind]},
   t AS (
     UPDATE oauth_tokens t SET rotated_at = $2
     FROM cl, app_users au
     WHERE t.refresh_token_hash = $1 AND t.application_id = cl.id
       AND t.revoked_at IS NULL AND t.rotated_at IS NULL AND t.refresh_expires_at > $2
       AND au.application_id = t.application_id AND au.user_id = t.user_id
       AND au.enabled AND au.granted_scope IS NOT NULL
       AND ($4::text IS NULL OR string_to_array($4::text, ' ') <@ string_to_array(t.scope, ' '))
     RETURNING t.id, t.application_id, t.user_id, COALESCE($4::text, t.scope) AS scope, t.family_id, t.code_id),
   issued AS (
     INSERT INTO oauth_tokens (application_id, user_id, access_token_hash, refresh_token_hash, scope,
       access_expires_at, refresh_expires_at, family_id, code_id, parent_id, created_at)
     SELECT application_id, user_id, $5::varchar, $6::varchar, scope, $7::timestamptz, $8::timestamptz,
       family_id, code_id, id, $2 FROM t),
   event AS (
     INSERT INTO events (application_id, event_type, protocol, status, user_id, scope, description, created_at)
     SELECT application_id, 'token_refreshed', 'oauth2', 'success', user_id, scope, '', $2 FROM t)
   SELECT scope FROM t`;

const ROTATE: Record<ClientKind, string> = {
  authenticated: rotateStatement('authenticated'),
  public: rotateStatement('public'),
};

/**
 * The successful refresh in ONE statement (RFC 6749 section 6, RFC 9700 section 4.14.2): marks
 * the presented token rotated and inserts its successor and the `token_refreshed` event, only if
 * the token belongs to the client, is live, the relation stands and the scope does not widen.
 * Returns the new token's scope, or null when nothing changed: the caller then runs the
 * step-by-step path (lockRefreshToken) that names the failure and revokes a replayed family.
 */
export async function rotateRefreshToken(
  dataSource: DataSource,
  r: Rotation,
): Promise<string | null> {
  const kind = clientKind(r.client);
  const rows = await preparedQuery<{ scope: string }>(
    dataSource,
    `oauth_rotate_refresh_${kind}`,
    ROTATE[kind],
    [
      sha256Hex(r.refreshToken),
      r.tokens.now,
      clientParam(r.client),
      r.scope,
      r.tokens.accessHash,
      r.tokens.refreshHash,
      r.tokens.accessExpiresAt,
      r.tokens.refreshExpiresAt,
    ],
  );
  return rows[0]?.scope ?? null;
}

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
    [sha256Hex(refreshToken)],
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
