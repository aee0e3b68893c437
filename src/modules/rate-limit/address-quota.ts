import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { AppConfig } from '../../config/app-config';
import { windowAt } from './fixed-window';
import { LimiterStore } from './limiter-store';

/** Anonymous requests that write a row are counted in fixed 15-minute windows, as failed sign-ins. */
export const QUOTA_WINDOW_SECONDS = 900;

/**
 * Per-address quotas of anonymous requests that leave state behind (a passkey sign-in
 * challenge, the spent state of an upstream sign-in; docs/security.md, "Anonymous requests that
 * keep state"). Counted in the LimiterStore like the login throttle: shared by every instance
 * through Redis, per instance while Redis is unreachable (docs/adr/0002).
 */
@Injectable()
export class AddressQuota {
  constructor(
    private readonly store: LimiterStore,
    private readonly clock: Clock,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  /**
   * Counts one request of `name` from `address`: null while within `limit` per window, else
   * the whole seconds until the window ends (Retry-After).
   */
  async take(name: string, address: string, limit: number): Promise<number | null> {
    const window = windowAt(this.clock.now(), QUOTA_WINDOW_SECONDS * 1000);
    const key = `${this.config.rateLimitKeyPrefix}quota:${window.index}:ip:${address}`;
    const count = await this.store.increment(key, window.storageTtlMs, name);
    return count > limit ? window.secondsToReset : null;
  }
}
