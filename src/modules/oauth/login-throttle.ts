import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';

/** Failed sign-ins allowed per window, per client address and per account name. */
export const LOGIN_WINDOW_SECONDS = 900;
export const MAX_FAILURES_PER_ADDRESS = 20;
export const MAX_FAILURES_PER_ACCOUNT = 5;

interface Counter {
  failures: number;
  resetAt: number;
}

/**
 * Throttles password guessing (fixed 15-minute windows, counting failures only). In-process:
 * each instance counts on its own, documented in docs/oauth.md. The account key is the name as
 * typed, so unknown accounts are throttled alike and the limit reveals nothing.
 */
@Injectable()
export class LoginThrottle {
  private readonly counters = new Map<string, Counter>();

  constructor(private readonly clock: Clock) {}

  isBlocked(address: string, account: string): boolean {
    return (
      this.failures(`ip:${address}`) >= MAX_FAILURES_PER_ADDRESS ||
      this.failures(`account:${account}`) >= MAX_FAILURES_PER_ACCOUNT
    );
  }

  recordFailure(address: string, account: string): void {
    const now = this.clock.now().getTime();
    if (this.counters.size > 100_000) this.prune(now);
    for (const key of [`ip:${address}`, `account:${account}`]) {
      const counter = this.live(key, now);
      this.counters.set(key, {
        failures: (counter?.failures ?? 0) + 1,
        resetAt: counter?.resetAt ?? now + LOGIN_WINDOW_SECONDS * 1000,
      });
    }
  }

  /** A successful sign-in clears the account's count (not the address's). */
  recordSuccess(account: string): void {
    this.counters.delete(`account:${account}`);
  }

  private failures(key: string): number {
    return this.live(key, this.clock.now().getTime())?.failures ?? 0;
  }

  private live(key: string, now: number): Counter | undefined {
    const counter = this.counters.get(key);
    return counter && counter.resetAt > now ? counter : undefined;
  }

  private prune(now: number): void {
    for (const [key, counter] of this.counters)
      if (counter.resetAt <= now) this.counters.delete(key);
  }
}
