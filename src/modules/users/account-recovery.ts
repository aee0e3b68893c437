import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { emailKey } from './account-names';
import { User } from './user.entity';

/** The account an address reaches, and that address as the account stores it. */
export interface AddressOwner {
  userId: string;
  /** The stored address (users.email or user_emails.email): where a message goes. */
  email: string;
}

/** An account a password reset found, and what the reset needs to know about it. */
export interface RecoverableAccount {
  user: User;
  /** The address the code went to is the account's primary email (users.email). */
  addressIsPrimary: boolean;
}

// The account an address belongs to: its primary email (verified or not: the account's own
// record of where to reach it), or a verified entry of user_emails. An unverified entry (an
// upstream's unconfirmed address) reaches nobody. The unique indexes on lower(email) let one
// account at most hold an address; a primary match comes first all the same.
const FIND_BY_ADDRESS_SQL = `
  SELECT id, email FROM (
    SELECT u.id, u.email, 0 AS rank FROM users u WHERE u.email <> '' AND lower(u.email) = $1
    UNION ALL
    SELECT e.user_id, e.email, 1 FROM user_emails e WHERE e.verified AND lower(e.email) = $1
  ) found ORDER BY rank LIMIT 1`;

// Whether the address still belongs to the account (it may have changed since the code was sent).
const HOLDS_ADDRESS_SQL = `
  SELECT 1 FROM user_emails
   WHERE user_id = $1 AND verified AND lower(email) = $2`;

/**
 * The writes of a password reset by email (docs/accounts.md, "Password reset") on the tables of
 * `users`: finding the account of an address, and, in the caller's transaction, setting the new
 * password. Entering a code sent to the primary address proves the person reads it, so that
 * address becomes verified.
 */
@Injectable()
export class AccountRecovery {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The account the typed address reaches (compared in the form of emailKey), with the address
   * as it stores it, or null. A message goes to that stored address, never to the typed one.
   */
  async findByAddress(typed: string): Promise<AddressOwner | null> {
    const address = emailKey(typed);
    if (address === '') return null;
    const rows = await this.dataSource.query<{ id: string; email: string }[]>(FIND_BY_ADDRESS_SQL, [
      address,
    ]);
    return rows[0] ? { userId: rows[0].id, email: rows[0].email } : null;
  }

  /**
   * Locks the account's row for the reset and checks that `email` still reaches it; null when
   * the account is gone or the address no longer belongs to it.
   */
  async lockForReset(
    manager: EntityManager,
    userId: string,
    email: string,
  ): Promise<RecoverableAccount | null> {
    const user = await manager
      .getRepository(User)
      .createQueryBuilder('u')
      .setLock('pessimistic_write')
      .where('u.id = :userId', { userId })
      .getOne();
    if (!user) return null;
    // `email` is the code's: an address as an account stored it, compared in the one form.
    const address = emailKey(email);
    const addressIsPrimary = user.email !== '' && emailKey(user.email) === address;
    if (addressIsPrimary) return { user, addressIsPrimary };
    const held = await manager.query<unknown[]>(HOLDS_ADDRESS_SQL, [userId, address]);
    return held.length > 0 ? { user, addressIsPrimary } : null;
  }

  /**
   * Stores the new password hash, counts the reset as a sign-in (`last_login_at`) and, when the
   * code went to the primary address, marks that address verified (the user row and its primary
   * entry of user_emails). Updates `account.user` to match; answers whether the primary address
   * became verified by this.
   */
  async setPassword(
    manager: EntityManager,
    account: RecoverableAccount,
    passwordHash: string,
    now: Date,
  ): Promise<boolean> {
    const { user } = account;
    const verifies = account.addressIsPrimary && !user.emailVerified;
    await manager
      .getRepository(User)
      .update(
        { id: user.id },
        { passwordHash, lastLoginAt: now, ...(verifies ? { emailVerified: true } : {}) },
      );
    if (account.addressIsPrimary) {
      await manager.query(
        `UPDATE user_emails SET verified = true
          WHERE user_id = $1 AND "primary" AND lower(email) = lower($2) AND NOT verified`,
        [user.id, user.email],
      );
    }
    user.passwordHash = passwordHash;
    user.lastLoginAt = now;
    if (verifies) user.emailVerified = true;
    return verifies;
  }
}
