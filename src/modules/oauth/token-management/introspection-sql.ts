import type { DataSource } from 'typeorm';
import { preparedQuery } from '../../../common/sql/prepared-query';
import {
  batchInputSql,
  batchStatement,
  statement,
  runBatchStatement,
  type BatchStatement,
  type Statement,
} from '../../../common/sql/statement';
import { TOKEN_EXPIRY_COLUMN, usableTokenSql, type TokenKind } from '../../tokens/token-sql';
import { relationOf, relationUsable } from '../../users/relation-sql';
import { oauthClientColumnsSql, type OAuthClient } from '../client-auth/authenticate-client';

/**
 * An active token's own fields, as the lookup reads them (exp and iat in epoch seconds; the JSON
 * object also holds its `application_id`, which nothing reads past the SQL).
 */
export interface TokenRow {
  scope: string;
  sub: string;
  username: string;
  iat: number;
  exp: number;
  /** An access token's DPoP key thumbprint (RFC 9449 section 6), null for a bearer token. */
  jkt: string | null;
}

/**
 * The client an introspection request names (the columns authenticateClient reads) and the
 * presented token as each kind, null where it is not an active token of that client's application.
 */
export type IntrospectionRow = OAuthClient & Record<`${TokenKind}_token`, TokenRow | null>;

/** One introspection: the client id sent, the SHA-256 of the token (null when none was sent). */
export interface IntrospectionLookup {
  clientId: string;
  tokenHash: string | null;
  now: Date;
}

const INPUTS = { clientId: 'varchar', tokenHash: 'varchar', now: 'timestamptz' } as const;
type Input = keyof typeof INPUTS;

/**
 * The `kind` token with hash :tokenHash, active at :now (the conditions userinfo applies), with
 * its application's id. The refresh lookup runs only when the access lookup found nothing: a hash
 * belongs to one token of one kind, and PostgreSQL then skips the refresh token's index probe and
 * its successor check for every access token introspected.
 *
 * The lookup must read the token by its hash's unique index, and nothing else, whatever
 * PostgreSQL knows of the table: the statement's generic plan is made once per connection and
 * kept, and with small or missing statistics (a new database, autovacuum off) it was planned as a
 * scan of every token, or of every token of the client's application, filtered by hash, which
 * grew with the table (docs/performance/oauth.md, "Introspection's plan"). So:
 * - the token is found by its hash alone, and whether it is the calling client's is asked in the
 *   select list (introspectionSql), where it offers no second way in;
 * - `LIMIT 1` (a hash names one token at most) keeps the lookup a subquery of its own, run for each
 *   item through the unique index; flattened into the join, it could be planned as a hash join
 *   over the whole table.
 */
const activeTokenSql = (kind: TokenKind): string =>
  `LEFT JOIN LATERAL (
     SELECT t.application_id, t.scope, t.user_id::text AS sub, u.username,
       floor(extract(epoch FROM t.created_at))::bigint AS iat,
       floor(extract(epoch FROM t.${TOKEN_EXPIRY_COLUMN[kind]}))::bigint AS exp,
       ${kind === 'access' ? 't.dpop_jkt' : 'NULL'} AS jkt
     FROM oauth_tokens t
     JOIN users u ON u.id = t.user_id
     JOIN applications a ON a.id = t.application_id AND a.enabled
     JOIN app_users au ON ${relationOf('au', 't')} AND ${relationUsable('au')}
     WHERE ${usableTokenSql(kind, { hash: ':tokenHash', now: ':now' })}${
       kind === 'refresh' ? '\n       AND access_row.sub IS NULL' : ''
     }
     LIMIT 1
   ) ${kind}_row ON true`;

/** The token as `kind`, as one JSON object, when it belongs to client `c`'s application. */
const ownTokenSql = (kind: TokenKind): string =>
  `CASE WHEN ${kind}_row.application_id = c.id THEN to_jsonb(${kind}_row) END AS ${kind}_token`;

/** The client named :clientId (`c`, in `from`) with the token as each kind, in one round trip. */
const introspectionSql = (from: string, columns = ''): string =>
  `SELECT ${oauthClientColumnsSql('c')}${columns},
     ${ownTokenSql('access')}, ${ownTokenSql('refresh')}
   FROM ${from}
   ${activeTokenSql('access')}
   ${activeTokenSql('refresh')}
   WHERE c.client_id = :clientId`;

/** One introspection (a lone request). */
export const INTROSPECTION: Statement<Input> & { name: string } = {
  name: 'oauth_introspect',
  ...statement(introspectionSql('applications c'), Object.keys(INPUTS) as Input[]),
};

/** INTROSPECTION for several requests at once: each row names its item by `ord`. */
export const INTROSPECTION_BATCH: BatchStatement<Input> & { name: string } = {
  name: 'oauth_introspect_batch',
  ...batchStatement(
    introspectionSql(`${batchInputSql(INPUTS)} CROSS JOIN applications c`, ', i.ord'),
    INPUTS,
    'clientId',
  ),
};

/** One introspection's client and token rows by INTROSPECTION; null when no client has that id. */
export async function introspectOne(
  dataSource: DataSource,
  lookup: IntrospectionLookup,
): Promise<IntrospectionRow | null> {
  const values = INTROSPECTION.values(lookup);
  const rows = await preparedQuery<IntrospectionRow>(
    dataSource,
    INTROSPECTION.name,
    INTROSPECTION.text,
    values,
  );
  return rows[0] ?? null;
}

/** introspectOne for several lookups in one statement, answered in their order. */
export const introspectMany = (
  dataSource: DataSource,
  lookups: readonly IntrospectionLookup[],
): Promise<(IntrospectionRow | null)[]> =>
  runBatchStatement<IntrospectionRow, Input>(
    dataSource,
    INTROSPECTION_BATCH.name,
    INTROSPECTION_BATCH,
    lookups,
  );
