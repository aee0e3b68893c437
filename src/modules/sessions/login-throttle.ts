import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { sha256Hex } from '../../common/crypto/hash';
import type { FixedWindow } from '../rate-limit/fixed-window';
import { LimiterThrottlerStorage } from '../rate-limit/limiter-throttler-storage';

/** Failed sign-ins are counted in fixed 15-minute windows (docs/oauth.md, login throttling). */
export const LOGIN_WINDOW_SECONDS = 900;
const LOGIN_WINDOW_MS = LOGIN_WINDOW_SECONDS * 1000;
/** Failed sign-ins allowed per window from one address for one account name. */
export const MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS = 5;
/** Failed sign-ins allowed per window from one address, whatever the account names. */
export const MAX_FAILURES_PER_ADDRESS = 20;

const BUCKET = 'login-failures';

/** One counter's key and the window the slot was taken in (given back in that window). */
interface TakenCount {
  key: string;
  window: FixedWindow;
}

/** The failure slot one attempt holds while its password is checked. */
export interface FailureSlot {
  accountAndAddress: TakenCount;
  address: TakenCount;
}

export type SlotOutcome =
  { kind: 'taken'; slot: FailureSlot } | { kind: 'throttled'; retryAfterSeconds: number };

/**
 * Throttles password guessing without letting anyone lock an owner out: failures are limited
 * per (account, address) and per address, never per account alone, so five wrong passwords
 * from an attacker's address do not refuse the owner's correct password from another address.
 * The account is the name as typed (lower-cased), so unknown accounts are throttled alike and
 * the limit reveals nothing; it is hashed into the key, so no user name is stored in Redis.
 *
 * Every attempt takes a failure slot with an atomic increment before its password is hashed and
 * gives it back unless the password turns out wrong: of any number of simultaneous guesses, on
 * one instance or several, at most the limit are ever evaluated.
 *
 * Counts live in the rate limiter's throttler storage (LimiterThrottlerStorage): shared by every
 * instance through Redis, with the fail-open policy of docs/adr/0002. The storage is used here
 * directly, not through the throttler guard: a guard counts requests before the handler, while
 * this counts failed passwords, keyed by the account name of the form, and gives a slot back
 * once the password turns out right (docs/rate-limit.md).
 */
@Injectable()
export class LoginThrottle {
  constructor(
    private readonly storage: LimiterThrottlerStorage,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  /**
   * Takes a slot in the pair's bucket, then in the address's. The address's bucket is only
   * counted into once the pair's had room, so one account's burst cannot use up the address's
   * budget for the others; a bucket that is full is given back at once.
   */
  async take(address: string, account: string): Promise<SlotOutcome> {
    const prefix = `${this.config.rateLimitKeyPrefix}login:`;
    const pairKey = `${prefix}account:${sha256Hex(account)}:ip:${address}`;
    const forPair = await this.count(pairKey, MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS);
    if (forPair.isBlocked) {
      await this.storage.decrement(pairKey, forPair.window, BUCKET);
      return throttled(forPair.timeToBlockExpire);
    }
    const addressKey = `${prefix}ip:${address}`;
    const forAddress = await this.count(addressKey, MAX_FAILURES_PER_ADDRESS);
    const slot: FailureSlot = {
      accountAndAddress: { key: pairKey, window: forPair.window },
      address: { key: addressKey, window: forAddress.window },
    };
    if (forAddress.isBlocked) {
      await this.giveBack(slot);
      return throttled(forAddress.timeToBlockExpire);
    }
    return { kind: 'taken', slot };
  }

  /** The attempt was not a failure (a correct password, or it was never evaluated). */
  async giveBack(slot: FailureSlot): Promise<void> {
    await Promise.all(
      [slot.accountAndAddress, slot.address].map(({ key, window }) =>
        this.storage.decrement(key, window, BUCKET),
      ),
    );
  }

  private count(key: string, limit: number): ReturnType<LimiterThrottlerStorage['increment']> {
    return this.storage.increment(key, LOGIN_WINDOW_MS, limit, LOGIN_WINDOW_MS, BUCKET);
  }
}

function throttled(retryAfterSeconds: number): SlotOutcome {
  return { kind: 'throttled', retryAfterSeconds };
}
