import type { DataSource } from 'typeorm';
import { sha256Hex } from '../../../../common/crypto/hash';
import { preparedQuery } from '../../../../common/sql/prepared-query';
import { insertEventSql } from '../../../events/event-sql';
import {
  insertTokenSql,
  lockByRefreshHashSql,
  REFRESH_TOKEN_COLUMNS,
  rotateTokenSql,
} from '../../../tokens/token-sql';
import { relationOf } from '../../../users/relation-sql';
import {
  CLIENT_CTE,
  CLIENT_SQL,
  clientKind,
  clientParam,
  type ClientKind,
  type RedeemingClient,
} from '../redeeming-client';
import { reuseSince } from '../rules/check-refresh-token';
import type { MintedTokens } from '../token-issuer';
import type { TokenBinding } from '../token-binding';
import {
  batchInputSql,
  batchStatement,
  inputNames,
  runBatchStatement,
  statement,
  type BatchStatement,
  type Statement,
} from '../../../../common/sql/statement';
import { allHold, outcomeColumns } from '../rules/step';
import { REFRESH_STEPS } from '../rules/registries';

// The refresh-token rotation's statements and the functions that run them (refresh-token.ts and
// the batching in token-batches.ts call them), assembled from the steps
// of rules/registries.ts and the fragments of the modules that own the tables; rendered in sql/.

/**
 * The refresh statements' parameters, by the names the steps' conditions use, with their SQL
 * types (the batch form's arrays); bound by name (src/common/sql/statement.ts), `$1` … in order.
 */
export const REFRESH_INPUTS = {
  refreshHash: 'text',
  now: 'timestamptz',
  client: 'text',
  scope: 'text',
  reuseSince: 'timestamptz',
  jkt: 'text',
  accessHash: 'text',
  newRefreshHash: 'text',
  accessExpiresAt: 'timestamptz',
  refreshExpiresAt: 'timestamptz',
  refreshJkt: 'text',
} as const;

export type RefreshInput = keyof typeof REFRESH_INPUTS;

/** What the step-by-step path's lock reads: the steps' parameters, none of the new pair's. */
export const LOCK_INPUTS = ['refreshHash', 'now', 'client', 'scope', 'reuseSince', 'jkt'] as const;
export type LockInput = (typeof LOCK_INPUTS)[number];

/** The successor of the rotated token `t`. */
const SUCCESSOR = {
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
  generation: 'generation + 1',
  createdAt: ':now',
  dpopJkt: ':jkt::varchar',
  refreshDpopJkt: ':refreshJkt::varchar',
};

/** The `token_refreshed` event of the rotated token `t`. */
const TOKEN_REFRESHED = {
  applicationId: 'application_id',
  eventType: "'token_refreshed'",
  userId: 'user_id',
  scope: 'scope',
  description: "''",
  createdAt: ':now',
};

/** What the rotation returns of `t` (the new scope: the requested one, else the token's). */
const ROTATED_COLUMNS =
  't.id, t.application_id, t.user_id, COALESCE(:scope::text, t.scope) AS scope, t.family_id, t.code_id, t.generation';

/** Where every refresh step holds (the relation `au` joined to `t`). */
const ROTATION_GUARD = `${relationOf('au', 't')}
       AND ${allHold(REFRESH_STEPS)}`;

/**
 * Marks the presented token rotated only where every refresh step holds, and inserts its
 * successor (tokens module) and the `token_refreshed` event (events module). A concurrent
 * refresh of the same token waits for the row lock and re-evaluates the steps on the committed
 * row: within the reuse interval it matches again (rotated_at is kept, a sibling is issued);
 * with the interval off it no longer matches and goes on to the step-by-step path, which names
 * the replay.
 */
export const rotateStatement = (kind: ClientKind): Statement<RefreshInput> =>
  statement(
    `WITH ${CLIENT_CTE[kind]},
   t AS (
     ${rotateTokenSql({
       refreshHash: ':refreshHash',
       now: ':now',
       from: 'cl, app_users au',
       where: ROTATION_GUARD,
       returning: ROTATED_COLUMNS,
     })}),
   issued AS (
     ${insertTokenSql(SUCCESSOR, 'FROM t')}),
   event AS (
     ${insertEventSql(TOKEN_REFRESHED, 'FROM t')})
   SELECT scope, user_id, application_id, code_id FROM t`,
    inputNames(REFRESH_INPUTS),
  );

/**
 * The same rotation for a batch of refresh tokens in one statement and one commit (docs/
 * performance/oauth.md, "Group commit"): the items are the rows `i`, the client and
 * every step are evaluated per item, and each rotated token answers its own row (`ord`). The
 * tokens must be distinct; the items run in the order of their hash, so that batches lock in one
 * order.
 *
 * `i` locks each item's token (the tokens module's lock, as the step-by-step path takes it) and
 * evaluates every step on the locked row: a concurrent rotation is waited for and seen, as in the
 * single statement (READ COMMITTED). The UPDATE then joins nothing but `i` and the token itself,
 * by its id. (With the steps and the relation in the UPDATE, the generic plan of the prepared
 * batch could start from the relation and read every token of the user by (application_id,
 * user_id): measured 2.5–2.9 ms of PostgreSQL CPU per refresh.)
 */
export const rotateBatchStatement = (kind: ClientKind): BatchStatement<RefreshInput> =>
  batchStatement(
    `WITH i AS MATERIALIZED (
     ${lockByRefreshHashSql({
       refreshHash: ':refreshHash',
       select: `i.*, t.id AS token_id, (${allHold(REFRESH_STEPS)}) IS TRUE AS ok`,
       join: `JOIN ${batchInputSql(REFRESH_INPUTS)} ON t.refresh_token_hash = :refreshHash
       CROSS JOIN LATERAL (${CLIENT_SQL[kind]}) cl
       LEFT JOIN app_users au ON ${relationOf('au', 't')}`,
     })}),
   t AS (
     ${rotateTokenSql({
       refreshHash: ':refreshHash',
       now: ':now',
       from: 'i',
       where: 't.id = i.token_id AND i.ok',
       returning: `i.ord, ${ROTATED_COLUMNS}`,
     })}),
   issued AS (
     ${insertTokenSql(SUCCESSOR, 'FROM t JOIN i ON i.ord = t.ord')}),
   event AS (
     ${insertEventSql(TOKEN_REFRESHED, 'FROM t JOIN i ON i.ord = t.ord')})
   SELECT ord, scope, user_id, application_id, code_id FROM t`,
    REFRESH_INPUTS,
    'refreshHash',
  );

/**
 * The presented token locked for the transaction, with its relation and the outcome of every
 * refresh step under the same conditions as rotateStatement (LOCK_INPUTS).
 */
export const LOCK_STATEMENT = statement(
  `WITH ${CLIENT_CTE.authenticated}
   ${lockByRefreshHashSql({
     refreshHash: ':refreshHash',
     select: `${REFRESH_TOKEN_COLUMNS}, au.enabled AS relation_enabled, au.granted_scope,
       ${outcomeColumns(REFRESH_STEPS)}`,
     join: `CROSS JOIN cl LEFT JOIN app_users au ON ${relationOf('au', 't')}`,
   })}`,
  LOCK_INPUTS,
);

export interface Rotation extends TokenBinding {
  refreshToken: string;
  client: RedeemingClient;
  /** The requested scope in canonical form, or null to keep the token's scope. */
  scope: string | null;
  tokens: MintedTokens;
  /** REFRESH_TOKEN_REUSE_SECONDS (rules/check-refresh-token.ts). */
  reuseSeconds: number;
}

/** The rotated grant: the new token's scope and whose it is (for an OpenID Connect id_token). */
export interface RotatedGrant {
  scope: string;
  user_id: string;
  application_id: number;
  code_id: string | null;
}

const ROTATE = {
  authenticated: rotateStatement('authenticated'),
  public: rotateStatement('public'),
};

const ROTATE_BATCH = {
  authenticated: rotateBatchStatement('authenticated'),
  public: rotateBatchStatement('public'),
};

/** A rotation's values, by parameter name. */
function rotationArgs(r: Rotation): Record<RefreshInput, unknown> {
  return {
    refreshHash: sha256Hex(r.refreshToken),
    now: r.tokens.now,
    client: clientParam(r.client),
    scope: r.scope,
    reuseSince: reuseSince(r.tokens.now, r.reuseSeconds),
    accessHash: r.tokens.accessHash,
    newRefreshHash: r.tokens.refreshHash,
    accessExpiresAt: r.tokens.accessExpiresAt,
    refreshExpiresAt: r.tokens.refreshExpiresAt,
    jkt: r.jkt,
    refreshJkt: r.refreshJkt,
  };
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
    ROTATE[kind].text,
    ROTATE[kind].values(rotationArgs(r)),
  );
  return rows[0] ?? null;
}

/**
 * Rotates several refresh tokens of one client kind in ONE statement (rotateBatchStatement), each
 * with the answer rotateRefreshToken would have given it alone. The tokens must be distinct.
 * Rejects, having changed nothing, if the statement fails.
 */
export async function rotateRefreshTokens(
  dataSource: DataSource,
  kind: ClientKind,
  rotations: readonly Rotation[],
): Promise<(RotatedGrant | null)[]> {
  return runBatchStatement<RotatedGrant, RefreshInput>(
    dataSource,
    `oauth_rotate_refreshes_${kind}`,
    ROTATE_BATCH[kind],
    rotations.map(rotationArgs),
  );
}
