import type { DataSource } from 'typeorm';
import { sha256Hex } from '../../../common/crypto/hash';
import { spendId, spendIdStatement } from '../protocol/spent-ids';

/** The statement that spends an assertion id (rendered in sql/). */
export const SPEND_ASSERTION_JTI = spendIdStatement('oauth_client_assertion_jtis');

/**
 * Spends the `jti` of a client's assertion until `expiresAt` (RFC 7523 section 3, item 7): true
 * the first time, false for a replay, on any instance (protocol/spent-ids.ts; docs/oauth.md,
 * "Client authentication"). Ids are namespaced per client and stored hashed.
 */
export function spendAssertionJti(
  dataSource: DataSource,
  clientId: string,
  jti: string,
  expiresAt: Date,
  now: Date,
): Promise<boolean> {
  const id = sha256Hex(`${clientId}\n${jti}`);
  return spendId(dataSource, 'oauth_client_assertion_jtis', id, expiresAt, now);
}
