import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { AppConfig } from '../../config/app-config';
import { sha256Hex } from '../../common/crypto/hash';
import { windowAt } from '../rate-limit/fixed-window';
import { LimiterStore } from '../rate-limit/limiter-store';

/** Failed sign-ins are counted in fixed 15-minute windows (docs/oauth.md, login throttling). */
export const LOGIN_WINDOW_SECONDS = 900;
/** Failed sign-ins allowed per window from one address for one account name. */
export const MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS = 5;
/** Failed sign-ins allowed per window from one address, whatever the account names. */
export const MAX_FAILURES_PER_ADDRESS = 20;

const BUCKET = 'login-failures';

/** The failure slot one attempt holds while its password is checked. */
export interface FailureSlot {
  accountAndAddress: string;
  address: string;
}

export type SlotOutcome =
  { kind: 'taken'; slot: FailureSlot } | { kind: 'throttled'; retryAfterSeconds: number };

/**
 * Throttles password guessing without letting anyone lock an owner out: failures are limited
 * per (account, address) and per address, never per account alone, so five wrong passwords
 * from an attacker's address do not refuse the owner's correct password from another address.
 * Counts live in the LimiterStore: shared by every instance through Redis, with the rate
 * limiter's fail-open policy (docs/adr/0002). The account is the name as typed (lower-cased),
 * so unknown accounts are throttled alike and the limit reveals nothing; it is hashed into the
 * key, so no user name is stored in Redis.
 *
 * Every attempt takes a failure slot with an atomic increment before its password is hashed and
 * gives it back unless the password turns out wrong: of any number of simultaneous guesses, on
 * one instance or several, at most the limit are ever evaluated.
 */
@Injectable()
export class LoginThrottle {
  constructor(
    private readonly store: LimiterStore,
    private readonly clock: Clock,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  /**
   * Takes a slot in the pair's bucket, then in the address's. The address's bucket is only
   * counted into once the pair's had room, so one account's burst cannot use up the address's
   * budget for the others; a bucket that is full is given back at once.
   */
  async take(address: string, account: string): Promise<SlotOutcome> {
    const window = windowAt(this.clock.now(), LOGIN_WINDOW_SECONDS * 1000);
    const prefix = `${this.config.rateLimitKeyPrefix}login:${window.index}:`;
    const slot: FailureSlot = {
      accountAndAddress: `${prefix}account:${sha256Hex(account)}:ip:${address}`,
      address: `${prefix}ip:${address}`,
    };
    const ttlMs = window.storageTtlMs;
    const throttled = { kind: 'throttled', retryAfterSeconds: window.secondsToReset } as const;
    const forPair = await this.store.increment(slot.accountAndAddress, ttlMs, BUCKET);
    if (forPair > MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS) {
      await this.store.decrement(slot.accountAndAddress, BUCKET);
      return throttled;
    }
    const forAddress = await this.store.increment(slot.address, ttlMs, BUCKET);
    if (forAddress > MAX_FAILURES_PER_ADDRESS) {
      await this.giveBack(slot);
      return throttled;
    }
    return { kind: 'taken', slot };
  }

  /** The attempt was not a failure (a correct password, or it was never evaluated). */
  async giveBack(slot: FailureSlot): Promise<void> {
    await Promise.all([
      this.store.decrement(slot.accountAndAddress, BUCKET),
      this.store.decrement(slot.address, BUCKET),
    ]);
  }
}
