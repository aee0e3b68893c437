import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock';
import { AuditLog } from '../../audit/audit-log.service';
import { addressHeldByAnother, claimsNameOrAddress } from '../../users/address-holder';
import { UserEmail } from '../../users/user-email.entity';
import { User } from '../../users/user.entity';
import { OneTimeCodes } from '../one-time-codes/one-time-codes.service';

/** What a sign-up code keeps until it is entered: never the password, only its scrypt hash. */
export interface SignUpPayload {
  username: string;
  passwordHash: string;
}

/** What entering a sign-up code came to. */
export type SignUpOutcome =
  { kind: 'created'; user: User } | { kind: 'refused' } | { kind: 'taken' };

/**
 * The account a sign-up code makes (docs/accounts.md, "Sign-up"): created in the transaction
 * that spends the code, so a code makes at most one account and an account exists only once its
 * address was proven.
 */
@Injectable()
export class SignUpAccounts {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly codes: OneTimeCodes,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
  ) {}

  /**
   * Spends the code and creates the account and its verified, primary email in one transaction.
   * A username or address taken since the form was sent still spends the code (the person
   * starts again); the unique indexes decide between simultaneous sign-ups.
   */
  async create(id: string, code: unknown, clientAddress: string): Promise<SignUpOutcome> {
    try {
      return await this.dataSource.transaction(async (manager) => {
        const outcome = await this.codes.consume(manager, 'sign_up', id, code);
        if (outcome.kind !== 'accepted') return { kind: 'refused' };
        const payload = asPayload(outcome.code.payload);
        if (payload === null) return { kind: 'refused' };
        const email = outcome.code.email;
        if (
          (await usernameTaken(manager, payload.username)) ||
          (await addressHeldByAnother(manager, email, null))
        ) {
          return { kind: 'taken' };
        }
        const user = await manager.getRepository(User).save({
          username: payload.username,
          email,
          emailVerified: true,
          passwordHash: payload.passwordHash,
          lastLoginAt: this.clock.now(),
        });
        await manager
          .getRepository(UserEmail)
          .save({ userId: user.id, email, verified: true, primary: true, visibility: 'public' });
        // Who created which account, from where: like a password reset, audited with no application.
        await this.audit.record(
          {
            applicationId: null,
            actorUserId: user.id,
            action: 'user.sign_up',
            target: `user:${user.id}`,
            details: { via: 'sign_up' },
            ip: clientAddress,
          },
          manager,
        );
        return { kind: 'created', user: await manager.findOneByOrFail(User, { id: user.id }) };
      });
    } catch (error) {
      if (claimsNameOrAddress(error)) return { kind: 'taken' };
      throw error;
    }
  }
}

/** Usernames are unique regardless of case (uq_users_lower_username). */
export async function usernameTaken(manager: EntityManager, username: string): Promise<boolean> {
  const rows = await manager.query<unknown[]>(
    'SELECT 1 FROM users WHERE lower(username) = lower($1)',
    [username],
  );
  return rows.length > 0;
}

function asPayload(value: Record<string, unknown> | null): SignUpPayload | null {
  return typeof value?.username === 'string' && typeof value.passwordHash === 'string'
    ? { username: value.username, passwordHash: value.passwordHash }
    : null;
}
