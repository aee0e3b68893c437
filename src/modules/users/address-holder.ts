import { QueryFailedError, type EntityManager } from 'typeorm';

/**
 * Whether an account other than `userId` (any account, for null) holds the address (lower-cased):
 * as its email, or as an entry of user_emails that reserves it (verified or primary; the partial
 * unique index uq_user_emails_lower_email). An unverified entry an upstream provider gave
 * reserves nothing (docs/upstreams.md, "Accounts"). Both lookups use the lower(email) indexes.
 */
export async function addressHeldByAnother(
  manager: EntityManager,
  email: string,
  userId: string | null,
): Promise<boolean> {
  const holders = await manager.query<unknown[]>(
    `SELECT 1 FROM users WHERE lower(email) = $1 AND id <> coalesce($2::bigint, 0)
     UNION ALL
     SELECT 1 FROM user_emails
      WHERE lower(email) = $1 AND (verified OR "primary") AND user_id <> coalesce($2::bigint, 0)
     LIMIT 1`,
    [email, userId],
  );
  return holders.length > 0;
}

/** A violation of one of the unique indexes that make a username or an address one account's. */
export function claimsNameOrAddress(error: unknown): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driver = error.driverError as { code?: string; constraint?: string } | undefined;
  return (
    driver?.code === '23505' &&
    ['uq_users_lower_username', 'uq_users_lower_email', 'uq_user_emails_lower_email'].includes(
      driver.constraint ?? '',
    )
  );
}

/** A violation of one of the unique indexes that make an address one account's. */
export function claimsAddress(error: unknown): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driver = error.driverError as { code?: string; constraint?: string } | undefined;
  return (
    driver?.code === '23505' &&
    ['uq_users_lower_email', 'uq_user_emails_lower_email'].includes(driver.constraint ?? '')
  );
}
