import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { hashPassword } from './password';
import { profileProblems, type ProfileChange, type ProfileProblems } from './profile';
import { UserEmail } from './user-email.entity';
import { User } from './user.entity';

export interface NewUser {
  username: string;
  email: string;
  password?: string;
  emailVerified?: boolean;
  nickname?: string;
}

const USERNAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{2,63}$/;
// Deliberately loose (RFC 5321 sizes, one @, a dot in the domain); ownership is proven by verification.
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/;

/** Whether `email` (already trimmed and lower-cased) has the shape of an address we store. */
export function isEmailAddress(email: string): boolean {
  return email.length <= 254 && EMAIL.test(email);
}

/** What proving an address of one's own (an emailed code) did to the account. */
export type EmailVerification =
  /** The address is a verified entry now; the account's email when it had none (or was it). */
  | 'verified'
  /** Another account holds the address (as its email or a verified entry): nothing changed. */
  | 'taken';

/** One of a user's addresses, as the account page lists it. */
export interface AccountEmail {
  email: string;
  verified: boolean;
  /** The account's email (users.email); the others are extra addresses. */
  primary: boolean;
}

const invalid = (message: string): AppError => new AppError(ErrorCode.InvalidRequest, message);

/** End-user accounts. Per-application views of users live with the application API. */
@Injectable()
export class UsersService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  /** Creates a local account and its primary email entry in one transaction. */
  async create(input: NewUser): Promise<User> {
    if (!USERNAME.test(input.username)) {
      throw invalid(
        'username must be 3 to 64 letters, digits, "_", "." or "-", starting with a letter or digit',
      );
    }
    const email = input.email.trim().toLowerCase();
    if (!isEmailAddress(email)) throw invalid('email is not a valid address');
    if (input.password !== undefined && input.password.length < 8) {
      throw invalid('password must be at least 8 characters');
    }
    const passwordHash =
      input.password === undefined
        ? null
        : await hashPassword(input.password, this.config.passwordHashCost);
    const verified = input.emailVerified ?? false;

    // The unique indexes on username and email decide, so two concurrent creations cannot both
    // pass a check; a violation is the client's conflict, not a server failure.
    return this.dataSource
      .transaction(async (manager) => {
        const user = await manager.getRepository(User).save({
          username: input.username,
          email,
          nickname: input.nickname ?? '',
          emailVerified: verified,
          passwordHash,
        });
        await manager
          .getRepository(UserEmail)
          .save({ userId: user.id, email, verified, primary: true, visibility: 'public' });
        return user;
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) {
          throw new AppError(ErrorCode.Conflict, 'username or email already in use');
        }
        throw error;
      });
  }

  /**
   * Sets the user's own nickname and avatar (the account page), trimmed, when both pass
   * profile.ts's rules; answers the problems otherwise, and changes nothing.
   */
  async updateProfile(userId: string, change: ProfileChange): Promise<ProfileProblems> {
    const trimmed = { nickname: change.nickname.trim(), avatar: change.avatar.trim() };
    const problems = profileProblems(trimmed);
    if (Object.keys(problems).length === 0) {
      await this.dataSource.getRepository(User).update({ id: userId }, trimmed);
    }
    return problems;
  }

  /** Stores a new password hash (users/password.ts) in the caller's transaction. */
  async setPasswordHash(
    manager: EntityManager,
    userId: string,
    passwordHash: string,
  ): Promise<void> {
    await manager.getRepository(User).update({ id: userId }, { passwordHash });
  }

  /** The user's addresses: the account's email first, then the others in the order added. */
  async emailsOf(user: Pick<User, 'id' | 'email'>): Promise<AccountEmail[]> {
    const rows = await this.dataSource.query<{ email: string; verified: boolean }[]>(
      'SELECT email, verified FROM user_emails WHERE user_id = $1 ORDER BY id',
      [user.id],
    );
    const primary = user.email.toLowerCase();
    const emails = rows.map((row) => ({
      email: row.email,
      verified: row.verified,
      primary: primary !== '' && row.email.toLowerCase() === primary,
    }));
    return [...emails.filter((e) => e.primary), ...emails.filter((e) => !e.primary)];
  }

  /**
   * The user proved `email` is theirs (an emailed code), in the caller's transaction: the entry
   * becomes verified (added if new); an account without an email, or whose email it is, takes it
   * as its verified email. Refused, changing nothing, when another account holds the address;
   * a unique index deciding a race rolls back only this step (a savepoint).
   */
  async verifyEmail(
    outer: EntityManager,
    userId: string,
    email: string,
  ): Promise<EmailVerification> {
    const address = email.toLowerCase();
    try {
      return await outer.transaction(async (manager) => {
        // The user's row is locked: two verifications of one account decide one after the other.
        const [user] = await manager.query<{ email: string }[]>(
          'SELECT email FROM users WHERE id = $1 FOR UPDATE',
          [userId],
        );
        if (await this.heldByAnother(manager, address, userId)) return 'taken';
        const primary = user.email.toLowerCase();
        const becomesPrimary = primary === '' || primary === address;
        const [entry] = await manager.query<{ id: string }[]>(
          'SELECT id FROM user_emails WHERE user_id = $1 AND lower(email) = $2',
          [userId, address],
        );
        if (entry) {
          await manager.query(
            'UPDATE user_emails SET verified = true, "primary" = "primary" OR $2 WHERE id = $1',
            [entry.id, becomesPrimary],
          );
        } else {
          await manager.getRepository(UserEmail).insert({
            userId,
            email: address,
            verified: true,
            primary: becomesPrimary,
            visibility: 'public',
          });
        }
        if (becomesPrimary) {
          await manager
            .getRepository(User)
            .update({ id: userId }, { email: address, emailVerified: true });
        }
        return 'verified';
      });
    } catch (error) {
      if (isUniqueViolation(error)) return 'taken';
      throw error;
    }
  }

  /** Whether an account other than `userId` holds the address (its email or a claiming entry). */
  private async heldByAnother(
    manager: EntityManager,
    email: string,
    userId: string,
  ): Promise<boolean> {
    const holders = await manager.query<unknown[]>(
      `SELECT 1 FROM users WHERE lower(email) = $1 AND id <> $2
       UNION ALL
       SELECT 1 FROM user_emails WHERE lower(email) = $1 AND (verified OR "primary") AND user_id <> $2
       LIMIT 1`,
      [email, userId],
    );
    return holders.length > 0;
  }
}

function isUniqueViolation(error: unknown): boolean {
  return (
    error instanceof QueryFailedError &&
    (error.driverError as { code?: string } | undefined)?.code === '23505'
  );
}
