import type { DataSource, EntityManager } from 'typeorm';
import { sha256Hex } from '../../common/crypto/hash';
import { preparedQuery } from '../../database/prepared-query';
import { insertEventSql } from '../events/event-sql';
import {
  insertTokenSql,
  lockByRefreshHashSql,
  REFRESH_TOKEN_COLUMNS,
  rotateTokenSql,
} from '../tokens/token-sql';
import { relationOf } from '../users/relation-sql';
import {
  CLIENT_CTE,
  clientKind,
  clientParam,
  type ClientKind,
  type RedeemingClient,
} from './redeeming-client';
import type { MintedTokens } from './token-issuer';
import { allHold, bindParams, outcomeColumns } from './token-step';
import { reuseSince } from './steps/check-refresh-token';
import { REFRESH_STEPS, type RefreshRow } from './token-steps';

export interface Rotation {
  refreshToken: string;
  client: RedeemingClient;
  /** The requested scope in canonical form, or null to keep the token's scope. */
  scope: string | null;
  tokens: MintedTokens;
  /** REFRESH_TOKEN_REUSE_SECONDS (steps/check-refresh-token.ts). */
  reuseSeconds: number;
}

/** The refresh statements' parameters, by the names the steps' conditions use. */
export const REFRESH_PARAMS = {
  refreshHash: '$1',
  now: '$2',
  client: '$3',
  scope: '$4',
  reuseSince: '$5',
  accessHash: '$6',
  newRefreshHash: '$7',
  accessExpiresAt: '$8',
  refreshExpiresAt: '$9',
} as const;

/**
 * Marks the presented token rotated only where every refresh step holds, and inserts its
 * successor (tokens module) and the `token_refreshed` event (events module). A concurrent
 * refresh of the same token waits for the row lock and re-evaluates the steps on the committed
 * row: within the reuse interval it matches again (rotated_at is kept, a sibling is issued);
 * with the interval off it no longer matches and goes on to the step-by-step path, which names
 * the replay.
 */
export const rotateStatement = (kind: ClientKind): string =>
  bindParams(
    `WITH ${CLIENT_CTE[kind]},
   t AS (
     ${rotateTokenSql({
       refreshHash: ':refreshHash',
       now: ':now',
       from: 'cl, app_users au',
       where: `${relationOf('au', 't')}
       AND ${allHold(REFRESH_STEPS)}`,
       returning: `t.id, t.application_id, t.user_id, COALESCE(:scope::text, t.scope) AS scope, t.family_id, t.code_id`,
     })}),
   issued AS (
     ${insertTokenSql(
       {
         applicationId: 'application_id',
         userId: 'user_id',
         accessHash: ':accessHash::varchar',
         refreshHash: ':newRefreshHash::varchar',
         scope: 'scope',
         accessExpiresAt: ':accessExpiresAt::timestamptz',
         refreshExpiresAt: ':refreshExpiresAt::timestamptz',
         familyId: 'family_id',
         codeId: 'code_id',
         parentId: 'id',
         createdAt: ':now',
       },
       'FROM t',
     )}),
   event AS (
     ${insertEventSql(
       {
         applicationId: 'application_id',
         eventType: "'token_refreshed'",
         userId: 'user_id',
         scope: 'scope',
         description: "''",
         createdAt: ':now',
       },
       'FROM t',
     )})
   SELECT scope, user_id, application_id, code_id FROM t`,
    REFRESH_PARAMS,
  );

const ROTATE: Record<ClientKind, string> = {
  authenticated: rotateStatement('authenticated'),
  public: rotateStatement('public'),
};

/** The rotated grant: the new token's scope and whose it is (for an OpenID Connect id_token). */
export interface RotatedGrant {
  scope: string;
  user_id: string;
  application_id: number;
  code_id: string | null;
}

/**
 * The successful refresh in ONE statement (RFC 6749 section 6, RFC 9700 section 4.14.2).
 * Returns the rotated grant, or null when nothing changed: the caller then runs the
 * step-by-step path (lockRefreshToken) that names the failure and revokes a replayed family.
 */
export async function rotateRefreshToken(
  dataSource: DataSource,
  r: Rotation,
): Promise<RotatedGrant | null> {
  const kind = clientKind(r.client);
  const rows = await preparedQuery<RotatedGrant>(
    dataSource,
    `oauth_rotate_refresh_${kind}`,
    ROTATE[kind],
    [
      sha256Hex(r.refreshToken),
      r.tokens.now,
      clientParam(r.client),
      r.scope,
      reuseSince(r.tokens.now, r.reuseSeconds),
      r.tokens.accessHash,
      r.tokens.refreshHash,
      r.tokens.accessExpiresAt,
      r.tokens.refreshExpiresAt,
    ],
  );
  return rows[0] ?? null;
}

/**
 * The presented token locked for the transaction, with its relation and the outcome of every
 * refresh step under the same conditions as rotateStatement (the first five parameters).
 */
export const LOCK_STATEMENT = bindParams(
  `WITH ${CLIENT_CTE.authenticated}
   ${lockByRefreshHashSql({
     refreshHash: ':refreshHash',
     select: `${REFRESH_TOKEN_COLUMNS}, au.enabled AS relation_enabled, au.granted_scope,
       ${outcomeColumns(REFRESH_STEPS)}`,
     join: `CROSS JOIN cl LEFT JOIN app_users au ON ${relationOf('au', 't')}`,
   })}`,
  REFRESH_PARAMS,
);

/** Finds and locks the presented refresh token for the step-by-step refresh; null if unknown. */
export async function lockRefreshToken(
  manager: EntityManager,
  r: {
    refreshToken: string;
    clientId: number;
    now: Date;
    scope: string | null;
    reuseSeconds: number;
  },
): Promise<RefreshRow | null> {
  const rows = await manager.query<RefreshRow[]>(LOCK_STATEMENT, [
    sha256Hex(r.refreshToken),
    r.now,
    r.clientId,
    r.scope,
    reuseSince(r.now, r.reuseSeconds),
  ]);
  return rows[0] ?? null;
}
