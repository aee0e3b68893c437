import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { sha256Hex } from '../../../../common/crypto/hash';
import { preparedQuery } from '../../../../database/prepared-query';
import { insertEventSql } from '../../../events/event-sql';
import type { EventsService } from '../../../events/events.service';
import { insertTokenSql } from '../../../tokens/token-sql';
import type { TokensRepository } from '../../../tokens/tokens.repository';
import { relationOf } from '../../../users/relation-sql';
import {
  CLIENT_CTE,
  CLIENT_SQL,
  clientKind,
  clientParam,
  type ClientKind,
  type RedeemingClient,
} from '../redeeming-client';
import type { MintedTokens } from '../token-issuer';
import {
  batchInputSql,
  batchParams,
  bindParams,
  positionalParams,
  runBatchStatement,
} from '../../../../database/statement';
import { allHold, outcomeColumns } from '../rules/step';
import { EXCHANGE_STEPS, type ExchangeRow } from '../rules/registries';

/** The consumed code and each step's outcome; `issued` when every step held. */
export interface ConsumedCode extends ExchangeRow {
  issued: boolean;
}

export interface Redemption {
  code: string;
  client: RedeemingClient;
  redirectUri: string;
  /** BASE64URL(SHA256(code_verifier)), or null when no verifier was sent. */
  verifierHash: string | null;
  tokens: MintedTokens;
}

/** The statement's parameters, by the names the steps' conditions use, with their SQL types. */
export const EXCHANGE_INPUTS = {
  codeHash: 'text',
  now: 'timestamptz',
  client: 'text',
  redirectUri: 'text',
  verifierHash: 'text',
  accessHash: 'text',
  refreshHash: 'text',
  accessExpiresAt: 'timestamptz',
  refreshExpiresAt: 'timestamptz',
  familyId: 'uuid',
} as const;

/** The single statement's parameters: `$1` … `$10`. */
export const EXCHANGE_PARAMS = positionalParams(EXCHANGE_INPUTS);

/** The issued pair, from the consumed code `r` (and the item `i` in the batch statement). */
const ISSUED_TOKENS = {
  applicationId: 'application_id',
  userId: 'user_id',
  accessHash: ':accessHash::varchar',
  refreshHash: ':refreshHash::varchar',
  scope: 'scope',
  accessExpiresAt: ':accessExpiresAt::timestamptz',
  refreshExpiresAt: ':refreshExpiresAt::timestamptz',
  familyId: ':familyId::uuid',
  codeId: 'id',
  parentId: 'NULL',
  generation: '0',
  createdAt: ':now',
};

/** The `token_issued` event of each issued pair. */
const TOKEN_ISSUED = {
  applicationId: 'application_id',
  eventType: "'token_issued'",
  userId: 'user_id',
  scope: 'scope',
  description: "''",
  createdAt: ':now',
};

/** The consumed code's columns and each step's outcome, over `c`, `cl` and the relation `au`. */
const CONSUMED_COLUMNS = `c.id, c.application_id, c.user_id, c.code_challenge, c.scope,
       au.enabled AS relation_enabled, au.granted_scope,
       ${outcomeColumns(EXCHANGE_STEPS)},
       (${allHold(EXCHANGE_STEPS)}) IS TRUE AS ok`;

/**
 * Consume the code (if the client qualifies), evaluate every exchange step against it and its
 * relation, and only if all hold insert the token pair (tokens module) and the `token_issued`
 * event (events module). The statement returns each step's outcome, from which the failure is
 * named (rules/registries.ts).
 */
export const exchangeStatement = (kind: ClientKind): string =>
  bindParams(
    `WITH ${CLIENT_CTE[kind]},
   c AS (
     UPDATE oauth_codes SET consumed_at = :now
     WHERE code_hash = :codeHash AND consumed_at IS NULL AND EXISTS (SELECT 1 FROM cl)
     RETURNING id, application_id, user_id, redirect_uri, code_challenge, scope, expires_at),
   r AS (
     SELECT ${CONSUMED_COLUMNS}
     FROM c CROSS JOIN cl LEFT JOIN app_users au ON ${relationOf('au', 'c')}),
   issued AS (
     ${insertTokenSql(ISSUED_TOKENS, 'FROM r WHERE ok')}
     RETURNING application_id, user_id, scope),
   event AS (
     ${insertEventSql(TOKEN_ISSUED, 'FROM issued')})
   SELECT r.*, EXISTS (SELECT 1 FROM issued) AS issued FROM r`,
    EXCHANGE_PARAMS,
  );

/**
 * The same exchange for a batch of codes in one statement and one commit (docs/performance-
 * oauth.md, "Group commit"): the items are the rows `i` (batchInputSql), the client and
 * every step are evaluated per item, and each consumed code answers its own row, `ord` naming
 * the item. A code absent from the answer was not consumed. The codes must be distinct (an
 * UPDATE joining one row twice is undefined); the caller sorts them so that concurrent batches
 * lock codes in the same order.
 */
export const exchangeBatchStatement = (kind: ClientKind): string =>
  bindParams(
    `WITH i AS (SELECT * FROM ${batchInputSql(EXCHANGE_INPUTS)}),
   c AS (
     UPDATE oauth_codes oc SET consumed_at = :now
     FROM i
     WHERE oc.code_hash = :codeHash AND oc.consumed_at IS NULL AND EXISTS (${CLIENT_SQL[kind]})
     RETURNING i.ord, oc.id, oc.application_id, oc.user_id, oc.redirect_uri, oc.code_challenge,
       oc.scope, oc.expires_at),
   r AS (
     SELECT c.ord, ${CONSUMED_COLUMNS}
     FROM c JOIN i ON i.ord = c.ord CROSS JOIN LATERAL (${CLIENT_SQL[kind]}) cl
       LEFT JOIN app_users au ON ${relationOf('au', 'c')}),
   issued AS (
     ${insertTokenSql(ISSUED_TOKENS, 'FROM r JOIN i ON i.ord = r.ord WHERE r.ok')}),
   event AS (
     ${insertEventSql(TOKEN_ISSUED, 'FROM r JOIN i ON i.ord = r.ord WHERE r.ok')})
   SELECT r.*, r.ok AS issued FROM r`,
    batchParams(EXCHANGE_INPUTS),
  );

const EXCHANGE: Record<ClientKind, string> = {
  authenticated: exchangeStatement('authenticated'),
  public: exchangeStatement('public'),
};

const EXCHANGE_BATCH: Record<ClientKind, string> = {
  authenticated: exchangeBatchStatement('authenticated'),
  public: exchangeBatchStatement('public'),
};

/** A redemption's values, in the order of EXCHANGE_INPUTS. */
function exchangeValues(r: Redemption): unknown[] {
  return [
    sha256Hex(r.code),
    r.tokens.now,
    clientParam(r.client),
    r.redirectUri,
    r.verifierHash,
    r.tokens.accessHash,
    r.tokens.refreshHash,
    r.tokens.accessExpiresAt,
    r.tokens.refreshExpiresAt,
    randomUUID(),
  ];
}

/**
 * Redeems a code in ONE statement (atomic on its own, one round trip, prepared once per
 * connection): of concurrent redemptions exactly one sees the code unconsumed, the others wait
 * for its row lock and then find it spent. A public client that is unknown, not `none` or
 * disabled consumes nothing. Null: nothing was consumed (unknown or spent code, or an unusable
 * public client; the caller then authenticates the client to name the failure).
 */
export async function redeemCode(
  dataSource: DataSource,
  r: Redemption,
): Promise<ConsumedCode | null> {
  const kind = clientKind(r.client);
  const rows = await preparedQuery<ConsumedCode>(
    dataSource,
    `oauth_redeem_code_${kind}`,
    EXCHANGE[kind],
    exchangeValues(r),
  );
  return rows[0] ?? null;
}

/**
 * Redeems several codes of one client kind in ONE statement (exchangeBatchStatement), each with
 * the answer redeemCode would have given it alone. The codes must be distinct. Rejects, having
 * changed nothing, if the statement fails (e.g. a deadlock with another instance's batch).
 */
export async function redeemCodes(
  dataSource: DataSource,
  kind: ClientKind,
  redemptions: readonly Redemption[],
): Promise<(ConsumedCode | null)[]> {
  return runBatchStatement<ConsumedCode>(
    dataSource,
    `oauth_redeem_codes_${kind}`,
    EXCHANGE_BATCH[kind],
    redemptions.map(exchangeValues),
  );
}

/**
 * A code presented again after it was consumed (RFC 6749 section 4.1.2): every token issued from
 * it is revoked. Runs after the winning redemption committed (its row lock was waited for).
 */
export async function revokeReplayedCode(
  manager: EntityManager,
  code: string,
  now: Date,
  tokens: TokensRepository,
  events: EventsService,
): Promise<void> {
  const spent = await manager.query<
    { id: string; application_id: number; user_id: string; scope: string }[]
  >('SELECT id, application_id, user_id, scope FROM oauth_codes WHERE code_hash = $1', [
    sha256Hex(code),
  ]);
  const row = spent[0];
  if (!row) return;
  const revoked = await tokens.revokeIssuedFromCode(manager, String(row.id), now);
  if (revoked === 0) return;
  await events.record(manager, {
    applicationId: row.application_id,
    userId: String(row.user_id),
    eventType: 'token_revoked',
    scope: row.scope,
    description: `authorization code reused: ${revoked} token(s) revoked`,
  });
}
