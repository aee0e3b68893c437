import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Clock } from '../../common/clock';
import { AppConfig } from '../../config/app-config';
import { hashPassword, verifyPassword } from '../users/password';
import { User } from '../users/user.entity';
import { LoginThrottle } from './login-throttle';
import {
  BUSY_RETRY_AFTER_SECONDS,
  PasswordCheckQueue,
  PasswordQueueFull,
} from './password-check-queue';

export type LoginOutcome =
  | { kind: 'ok'; user: User }
  | { kind: 'failed' }
  /** Too many failures from this address (for this account): 429 until the window ends. */
  | { kind: 'throttled'; retryAfterSeconds: number }
  /** The password check queue is full: 503, try again in a moment; nothing was counted. */
  | { kind: 'busy'; retryAfterSeconds: number };

/**
 * Local-account sign-in: username or email plus password (scrypt, see users/password.ts). The
 * one password check of both the OAuth login page and the console's POST /api/console/session.
 */
@Injectable()
export class LoginService {
  private dummyHash?: Promise<string>;

  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly throttle: LoginThrottle,
    private readonly queue: PasswordCheckQueue,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /**
   * Takes a failure slot first (atomic, so simultaneous guesses cannot pass the limit), then
   * checks the password in the bounded queue; the slot is kept only when the password is wrong.
   */
  async authenticate(identifier: string, password: string, address: string): Promise<LoginOutcome> {
    const account = identifier.trim().toLowerCase();
    const taken = await this.throttle.take(address, account);
    if (taken.kind === 'throttled') return taken;
    let user: User | null;
    try {
      user = await this.check(identifier.trim(), password, address);
    } catch (error) {
      await this.throttle.giveBack(taken.slot);
      if (error instanceof PasswordQueueFull) {
        return { kind: 'busy', retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS };
      }
      throw error;
    }
    if (!user) return { kind: 'failed' };
    await this.throttle.giveBack(taken.slot);
    await this.recordSignIn(user);
    return { kind: 'ok', user };
  }

  /**
   * A sign-in proven without a password (a passkey, verified by the caller): the user, with
   * `last_login_at` updated as a password sign-in updates it; null when the account is gone.
   */
  async signedInWithoutPassword(userId: string): Promise<User | null> {
    const user = await this.users.findOneBy({ id: userId });
    if (user) await this.recordSignIn(user);
    return user;
  }

  private async recordSignIn(user: User): Promise<void> {
    user.lastLoginAt = this.clock.now();
    await this.users.update({ id: user.id }, { lastLoginAt: user.lastLoginAt });
  }

  /** The user when the password is theirs, else null; only the hash waits in the queue. */
  private async check(identifier: string, password: string, address: string): Promise<User | null> {
    const user = await this.findByIdentifier(identifier);
    const stored = user?.passwordHash;
    // Unknown users and users without a password cost one hash too, so timing tells nothing.
    const ok = await this.queue.run(address, () =>
      stored ? verifyPassword(password, stored) : this.burnHash(password),
    );
    return user && ok ? user : null;
  }

  /**
   * Usernames and emails are unique regardless of case, so either spelling names one account;
   * the comparison is the expression of the unique indexes on lower(...) (migration
   * CaseInsensitiveUserNames), which serve it.
   */
  private findByIdentifier(identifier: string): Promise<User | null> {
    if (identifier === '' || identifier.length > 254) return Promise.resolve(null);
    const column = identifier.includes('@') ? 'email' : 'username';
    return this.users
      .createQueryBuilder('u')
      .where(`lower(u.${column}) = lower(:identifier)`, { identifier })
      .getOne();
  }

  private async burnHash(password: string): Promise<false> {
    this.dummyHash ??= hashPassword('not-a-real-password', this.config.passwordHashCost);
    await verifyPassword(password, await this.dummyHash);
    return false;
  }
}
