import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { EMAIL_RULE, emailKey, isValidUsername, normalEmail, USERNAME_RULE } from './account-names';
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
    if (!isValidUsername(input.username)) throw invalid(USERNAME_RULE);
    const email = normalEmail(input.email);
    if (email === null) throw invalid(EMAIL_RULE);
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
    const primary = emailKey(user.email);
    const emails = rows.map((row) => ({
      email: row.email,
      verified: row.verified,
      primary: primary !== '' && emailKey(row.email) === primary,
    }));
    return [...emails.filter((e) => e.primary), ...emails.filter((e) => !e.primary)];
  }
}

function isUniqueViolation(error: unknown): boolean {
  return (
    error instanceof QueryFailedError &&
    (error.driverError as { code?: string } | undefined)?.code === '23505'
  );
}
