import type { DataSource } from 'typeorm';
import { sha256Hex } from '../../../common/crypto/hash';
import { preparedQuery } from '../../../common/sql/prepared-query';
import { statement } from '../../../common/sql/statement';

/**
 * Records a used assertion id: a new row, or the row of an expired assertion with the same id
 * taken over. No row back means the id is in use: a replay.
 */
export const SPEND_ASSERTION_JTI = statement(
  `INSERT INTO oauth_client_assertion_jtis (id, expires_at) VALUES (:id, :expiresAt)
  ON CONFLICT (id) DO UPDATE SET expires_at = EXCLUDED.expires_at
    WHERE oauth_client_assertion_jtis.expires_at < :now
  RETURNING 1 AS spent`,
  ['id', 'expiresAt', 'now'],
);

/**
 * Spends the `jti` of a client's assertion until `expiresAt` (RFC 7523 section 3, item 7): true
 * the first time, false for a replay. The single-use check is the primary key of a PostgreSQL
 * table, which every instance shares and which holds whether or not Redis is configured or up
 * (docs/oauth.md, "Client authentication"): two instances racing on one assertion meet on the
 * same row, and one of them gets it. Ids are namespaced per client and stored hashed.
 */
export async function spendAssertionJti(
  dataSource: DataSource,
  clientId: string,
  jti: string,
  expiresAt: Date,
  now: Date,
): Promise<boolean> {
  const rows = await preparedQuery<{ spent: number }>(
    dataSource,
    'oauth_spend_assertion_jti',
    SPEND_ASSERTION_JTI.text,
    SPEND_ASSERTION_JTI.values({ id: sha256Hex(`${clientId}\n${jti}`), expiresAt, now }),
  );
  return rows.length === 1;
}
