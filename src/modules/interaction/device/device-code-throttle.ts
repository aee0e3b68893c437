import { Inject, Injectable } from '@nestjs/common';
import { sha256Hex } from '../../../common/crypto/hash';
import { AppConfig } from '../../../config/app-config';
import type { FixedWindow } from '../../rate-limit/fixed-window';
import { LimiterThrottlerStorage } from '../../rate-limit/limiter-throttler-storage';
import type { BrowserContext } from '../../sessions/cookies';

/** Unusable user codes are counted in fixed 10-minute windows (docs/oauth.md, "Device authorization grant"). */
export const DEVICE_CODE_WINDOW_SECONDS = 600;
const WINDOW_MS = DEVICE_CODE_WINDOW_SECONDS * 1000;
/** Unusable codes allowed per window from one address, and from one browser. */
export const MAX_DEVICE_CODE_FAILURES = 10;

const BUCKET = 'device-code-failures';

interface Taken {
  key: string;
  window: FixedWindow;
}

export type DeviceSlot =
  { kind: 'taken'; slots: Taken[] } | { kind: 'throttled'; retryAfterSeconds: number };

/**
 * Throttles guessing user codes (RFC 8628 section 5.1) as LoginThrottle throttles passwords: a
 * wrong, expired or used code is a failure counted against the connecting address and against
 * the browser (its session while signed in, else its CSRF cookie, which the device page's form
 * needs anyway); past MAX_DEVICE_CODE_FAILURES in a window from either, a submission is refused
 * before its code is looked up, even a right one.
 *
 * Every submission takes a slot in both counters before the lookup (an atomic increment in the
 * limiter's storage, shared by the instances through Redis) and gives it back when its code
 * turns out usable: of many simultaneous guesses at most the limit are ever looked up. Keys
 * hold no cookie, only its SHA-256.
 */
@Injectable()
export class DeviceCodeThrottle {
  constructor(
    private readonly storage: LimiterThrottlerStorage,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  async take(browser: BrowserContext): Promise<DeviceSlot> {
    const prefix = `${this.config.rateLimitKeyPrefix}device-code:`;
    const cookie = browser.sessionCookie ?? browser.csrfCookie;
    const keys = [
      `${prefix}ip:${browser.ip}`,
      ...(cookie === undefined ? [] : [`${prefix}browser:${sha256Hex(cookie)}`]),
    ];
    const slots: Taken[] = [];
    let blocked = false;
    let blockedFor = 0;
    for (const key of keys) {
      const counted = await this.storage.increment(
        key,
        WINDOW_MS,
        MAX_DEVICE_CODE_FAILURES,
        WINDOW_MS,
        BUCKET,
      );
      slots.push({ key, window: counted.window });
      if (counted.isBlocked) {
        blocked = true;
        blockedFor = Math.max(blockedFor, counted.timeToBlockExpire);
      }
    }
    if (blocked) {
      await this.giveBack(slots);
      return { kind: 'throttled', retryAfterSeconds: Math.max(1, blockedFor) };
    }
    return { kind: 'taken', slots };
  }

  /** The submission was not a failure: its code was usable. */
  async giveBack(slots: Taken[]): Promise<void> {
    await Promise.all(slots.map(({ key, window }) => this.storage.decrement(key, window, BUCKET)));
  }
}
