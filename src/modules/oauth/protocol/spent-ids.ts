import type { DataSource } from 'typeorm';
import { preparedQuery } from '../../../common/sql/prepared-query';
import { statement, type Statement } from '../../../common/sql/statement';

/**
 * The tables that record used one-time ids: a primary key of hashed ids, each row with the time
 * until which a second use is a replay. Client assertions (RFC 7523 section 3, item 7) and DPoP
 * proofs (RFC 9449 section 11.1) each have their own.
 */
export type SpentIdTable = 'oauth_client_assertion_jtis' | 'oauth_dpop_proof_jtis';

/**
 * Records a used id: a new row, or the row of an expired one with the same id taken over. No
 * row back means the id is in use: a replay.
 */
export const spendIdStatement = (table: SpentIdTable): Statement<'id' | 'expiresAt' | 'now'> =>
  statement(
    `INSERT INTO ${table} (id, expires_at) VALUES (:id, :expiresAt)
  ON CONFLICT (id) DO UPDATE SET expires_at = EXCLUDED.expires_at
    WHERE ${table}.expires_at < :now
  RETURNING 1 AS spent`,
    ['id', 'expiresAt', 'now'],
  );

const STATEMENTS: Record<SpentIdTable, Statement<'id' | 'expiresAt' | 'now'>> = {
  oauth_client_assertion_jtis: spendIdStatement('oauth_client_assertion_jtis'),
  oauth_dpop_proof_jtis: spendIdStatement('oauth_dpop_proof_jtis'),
};

/**
 * Spends `id` (already hashed and namespaced by the caller) until `expiresAt`: true the first
 * time, false for a replay. The check is the table's primary key in PostgreSQL, which every
 * instance shares and which holds whether or not Redis is configured or up: two instances racing
 * on one id meet on the same row, and one of them gets it.
 */
export async function spendId(
  dataSource: DataSource,
  table: SpentIdTable,
  id: string,
  expiresAt: Date,
  now: Date,
): Promise<boolean> {
  const spend = STATEMENTS[table];
  const rows = await preparedQuery<{ spent: number }>(
    dataSource,
    `${table}_spend`,
    spend.text,
    spend.values({ id, expiresAt, now }),
  );
  return rows.length === 1;
}
