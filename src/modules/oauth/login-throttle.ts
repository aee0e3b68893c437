import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { AppConfig } from '../../config/app-config';
import { sha256Hex } from '../../common/crypto/hash';
import { LimiterStore } from '../rate-limit/limiter-store';

/** Failed sign-ins are counted in fixed 15-minute windows (docs/oauth.md, login throttling). */
export const LOGIN_WINDOW_SECONDS = 900;
/** Failed sign-ins allowed per window from one address for one account name. */
export const MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS = 5;
/** Failed sign-ins allowed per window from one address, whatever the account names. */
export const MAX_FAILURES_PER_ADDRESS = 20;

const BUCKET = 'login-failures';
/** Counters outlive their window a little, as the rate limiter's do (fixed-window.ts). */
const SKEW_ALLOWANCE_MS = 5_000;

interface LoginBuckets {
  accountAndAddress: string;
  address: string;
  ttlMs: number;
}

/**
 * Throttles password guessing without letting anyone lock an owner out: failures are limited
 * per (account, address) and per address, never per account alone, so five wrong passwords
 * from an attacker's address do not refuse the owner's correct password from another address.
 * Counts live in the LimiterStore: shared by every instance through Redis, with the rate
 * limiter's fail-open policy (docs/adr/0002). The account is the name as typed (lower-cased),
 * so unknown accounts are throttled alike and the limit reveals nothing; it is hashed into the
 * key, so no user name is stored in Redis.
 */
@Injectable()
export class LoginThrottle {
  constructor(
    private readonly store: LimiterStore,
    private readonly clock: Clock,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  async isBlocked(address: string, account: string): Promise<boolean> {
    const buckets = this.buckets(address, account);
    const [forPair, forAddress] = await Promise.all([
      this.store.peek(buckets.accountAndAddress, BUCKET),
      this.store.peek(buckets.address, BUCKET),
    ]);
    return (
      forPair >= MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS || forAddress >= MAX_FAILURES_PER_ADDRESS
    );
  }

  async recordFailure(address: string, account: string): Promise<void> {
    const { accountAndAddress, address: forAddress, ttlMs } = this.buckets(address, account);
    await Promise.all([
      this.store.increment(accountAndAddress, ttlMs, BUCKET),
      this.store.increment(forAddress, ttlMs, BUCKET),
    ]);
  }

  private buckets(address: string, account: string): LoginBuckets {
    const now = this.clock.now().getTime();
    const windowMs = LOGIN_WINDOW_SECONDS * 1000;
    const index = Math.floor(now / windowMs);
    const prefix = `${this.config.rateLimitKeyPrefix}login:${index}:`;
    return {
      accountAndAddress: `${prefix}account:${sha256Hex(account)}:ip:${address}`,
      address: `${prefix}ip:${address}`,
      ttlMs: (index + 1) * windowMs - now + SKEW_ALLOWANCE_MS,
    };
  }
}
