import { Injectable } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { Clock } from '../../common/clock';
import { Metrics, NOOP_METRICS } from '../../common/metrics/metrics';
import { windowAt, type FixedWindow } from './fixed-window';
import { LimiterStore } from './limiter-store';

/** The record a ThrottlerStorage answers (the library does not export its interface). */
type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** The throttler's record, plus the fixed window the hit was counted in (for the headers). */
export interface WindowRecord extends ThrottlerStorageRecord {
  window: FixedWindow;
}

/**
 * The `ThrottlerStorage` of @nestjs/throttler for this service: fixed windows aligned to the
 * epoch (fixed-window.ts) counted in the LimiterStore, so every instance shares a count through
 * Redis (one Lua script per hit), in-process without REDIS_URL, with the fail-open policy of
 * docs/adr/0002 while Redis is unreachable. The key is `<key>:<window index>:<throttler name>`.
 *
 * A key over its limit is refused until its window ends (`timeToBlockExpire` = the seconds to
 * that end); the throttler's `blockDuration` is not used, since a fixed window has nothing else to
 * block. `timeToExpire` is also the seconds to the window's end: the count restarts then.
 */
@Injectable()
export class LimiterThrottlerStorage implements ThrottlerStorage {
  constructor(
    private readonly store: LimiterStore,
    private readonly clock: Clock,
    private readonly metrics: Metrics = NOOP_METRICS,
  ) {}

  async increment(
    key: string,
    ttl: number,
    limit: number,
    _blockDuration: number,
    throttlerName: string,
  ): Promise<WindowRecord> {
    const window = windowAt(this.clock.now(), ttl);
    const totalHits = await this.store.increment(
      `${key}:${window.index}`,
      window.storageTtlMs,
      throttlerName,
    );
    const isBlocked = totalHits > limit;
    const fallback = this.store.mode === 'in-process-fallback';
    this.metrics.rateLimitDecision(
      throttlerName,
      isBlocked ? 'limited' : fallback ? 'fail_open' : 'admitted',
    );
    return {
      totalHits,
      timeToExpire: window.secondsToReset,
      isBlocked,
      timeToBlockExpire: isBlocked ? window.secondsToReset : 0,
      window,
    };
  }

  /**
   * Gives back one hit counted by `increment` in `window` (a slot taken and then not used; the
   * login throttle's give-back) and returns the count left. Never below 0, never revives an
   * expired counter; while Redis is unreachable, in this process only (LimiterStore.decrement).
   */
  decrement(key: string, window: FixedWindow, throttlerName: string): Promise<number> {
    return this.store.decrement(`${key}:${window.index}`, throttlerName);
  }
}
