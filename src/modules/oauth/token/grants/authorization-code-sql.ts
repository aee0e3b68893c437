import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { sha256Hex } from '../../../../common/crypto/hash';
import { preparedQuery } from '../../../../common/sql/prepared-query';
import { insertEventSql } from '../../../events/event-sql';
import { insertTokenSql } from '../../../tokens/token-sql';
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
import { EXCHANGE_STEPS, type ExchangeRow } from '../rules/registries';

// The code exchange's statements and the functions that run them (authorization-code.ts and the
// batching in token-batches.ts call them), assembled from the steps of
// rules/registries.ts and the fragments of the modules that own the tables; rendered in sql/.

/**
 * The statement's parameters, by the names the steps' conditions use, with their SQL types (the
 * batch form's arrays); bound by name (src/common/sql/statement.ts), `$1` … in this order.
 */
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
  jkt: 'text',
  refreshJkt: 'text',
} as const;

export type ExchangeInput = keyof typeof EXCHANGE_INPUTS;

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
  dpopJkt: ':jkt::varchar',
  refreshDpopJkt: ':refreshJkt::varchar',
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
export const exchangeStatement = (kind: ClientKind): Statement<ExchangeInput> =>
  statement(
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
    inputNames(EXCHANGE_INPUTS),
  );

/**
 * The same exchange for a batch of codes in one statement and one commit (docs/performance/
 * oauth.md, "Group commit"): the items are the rows `i` (batchInputSql), the client and
 * every step are evaluated per item, and each consumed code answers its own row, `ord` naming
 * the item. A code absent from the answer was not consumed. The codes must be distinct (an
 * UPDATE joining one row twice is undefined); the items run in the order of their code hash, so
 * that concurrent batches lock codes in the same order.
 */
export const exchangeBatchStatement = (kind: ClientKind): BatchStatement<ExchangeInput> =>
  batchStatement(
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
    EXCHANGE_INPUTS,
    'codeHash',
  );

/** The consumed code and each step's outcome; `issued` when every step held. */
export interface ConsumedCode extends ExchangeRow {
  issued: boolean;
}

export interface Redemption extends TokenBinding {
  code: string;
  client: RedeemingClient;
  redirectUri: string;
  /** BASE64URL(SHA256(code_verifier)), or null when no verifier was sent. */
  verifierHash: string | null;
  tokens: MintedTokens;
}

const EXCHANGE = {
  authenticated: exchangeStatement('authenticated'),
  public: exchangeStatement('public'),
};

const EXCHANGE_BATCH = {
  authenticated: exchangeBatchStatement('authenticated'),
  public: exchangeBatchStatement('public'),
};

/** A redemption's values, by parameter name. */
function exchangeArgs(r: Redemption): Record<ExchangeInput, unknown> {
  return {
    codeHash: sha256Hex(r.code),
    now: r.tokens.now,
    client: clientParam(r.client),
    redirectUri: r.redirectUri,
    verifierHash: r.verifierHash,
    accessHash: r.tokens.accessHash,
    refreshHash: r.tokens.refreshHash,
    accessExpiresAt: r.tokens.accessExpiresAt,
    refreshExpiresAt: r.tokens.refreshExpiresAt,
    familyId: randomUUID(),
    jkt: r.jkt,
    refreshJkt: r.refreshJkt,
  };
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
    EXCHANGE[kind].text,
    EXCHANGE[kind].values(exchangeArgs(r)),
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
  return runBatchStatement<ConsumedCode, ExchangeInput>(
    dataSource,
    `oauth_redeem_codes_${kind}`,
    EXCHANGE_BATCH[kind],
    redemptions.map(exchangeArgs),
  );
}
