import { emailKey } from '../users/account-names';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Clock } from '../../common/clock';
import { Metrics, type LoginOutcome as LoginOutcomeLabel } from '../../common/metrics/metrics';
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

/** What re-checking a signed-in user's password answers (LoginService.checkPassword). */
export type PasswordCheckOutcome = { kind: 'ok' } | Exclude<LoginOutcome, { kind: 'ok' }>;

/**
 * The HTTP status and message of a refused sign-in on an HTML page (docs/oauth.md, login
 * throttling): the OAuth login page and the account page answer alike.
 */
export const LOGIN_REFUSALS: Record<'failed' | 'throttled' | 'busy', [number, string]> = {
  failed: [401, 'The username or password is incorrect.'],
  throttled: [429, 'Too many failed sign-in attempts. Wait a few minutes and try again.'],
  busy: [503, 'Too many sign-ins at this moment. Try again in a moment.'],
};

/** The `outcome` label of a password sign-in (docs/operations.md, "Metrics"). */
const PASSWORD_OUTCOMES: Record<LoginOutcome['kind'], LoginOutcomeLabel> = {
  ok: 'success',
  failed: 'invalid_credentials',
  throttled: 'throttled',
  busy: 'busy',
};

/**
 * Local-account sign-in: username or email plus password (scrypt, see users/password.ts). The
 * one password check of the OAuth login page, the account page and the console's
 * POST /api/console/session.
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
    private readonly metrics: Metrics,
  ) {}

  /**
   * Takes a failure slot first (atomic, so simultaneous guesses cannot pass the limit), then
   * checks the password in the bounded queue; the slot is kept only when the password is wrong.
   */
  async authenticate(identifier: string, password: string, address: string): Promise<LoginOutcome> {
    // One form for the throttle and the lookup: the addresses' (emailKey), which for a username
    // (ASCII by its rule) is its lower case.
    const account = emailKey(identifier);
    const outcome = await this.throttled(account, address, () =>
      this.check(account, password, address),
    );
    this.metrics.login('password', PASSWORD_OUTCOMES[outcome.kind]);
    if (outcome.kind !== 'ok') return outcome;
    await this.recordSignIn(outcome.value);
    return { kind: 'ok', user: outcome.value };
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

  /**
   * Re-checks the password of a signed-in user (the account page's password change) on the
   * sign-in's terms: a failure slot of the (username, address) pair and of the address, taken
   * before the hash, kept when the password is wrong, and the same queue. Not a sign-in:
   * last_login_at stays. A user without a password fails (one hash is burnt all the same).
   */
  async checkPassword(
    user: User,
    password: string,
    address: string,
  ): Promise<PasswordCheckOutcome> {
    const stored = user.passwordHash;
    const outcome = await this.throttled(user.username.toLowerCase(), address, async () => {
      const ok = await this.queue.run(address, () =>
        stored ? verifyPassword(password, stored) : this.burnHash(password),
      );
      return ok ? true : null;
    });
    return outcome.kind === 'ok' ? { kind: 'ok' } : outcome;
  }

  /**
   * Takes a failure slot first (atomic, so simultaneous guesses cannot pass the limit), then
   * runs `check` (null: a wrong password); the slot is kept only when the password is wrong.
   */
  private async throttled<T>(
    account: string,
    address: string,
    check: () => Promise<T | null>,
  ): Promise<{ kind: 'ok'; value: T } | Exclude<LoginOutcome, { kind: 'ok' }>> {
    const taken = await this.throttle.take(address, account);
    if (taken.kind === 'throttled') return taken;
    let value: T | null;
    try {
      value = await check();
    } catch (error) {
      await this.throttle.giveBack(taken.slot);
      if (error instanceof PasswordQueueFull) {
        return { kind: 'busy', retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS };
      }
      throw error;
    }
    if (value === null) return { kind: 'failed' };
    await this.throttle.giveBack(taken.slot);
    return { kind: 'ok', value };
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
   * CaseInsensitiveUserNames), which serve it, against `key`, the identifier in the form of
   * emailKey (docs/accounts.md, "Addresses").
   */
  private findByIdentifier(key: string): Promise<User | null> {
    if (key === '' || key.length > 254) return Promise.resolve(null);
    const column = key.includes('@') ? 'email' : 'username';
    return this.users.createQueryBuilder('u').where(`lower(u.${column}) = :key`, { key }).getOne();
  }

  private async burnHash(password: string): Promise<false> {
    this.dummyHash ??= hashPassword('not-a-real-password', this.config.passwordHashCost);
    await verifyPassword(password, await this.dummyHash);
    return false;
  }
}
