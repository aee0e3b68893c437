import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { LimiterThrottlerStorage } from '../../rate-limit/limiter-throttler-storage';
import { QUOTA_WINDOW_MS } from '../../rate-limit/throttlers';
import type { QuotaOutcome } from '../one-time-codes/code-quota';

/** Sign-up forms one client address may submit per 15-minute window (docs/accounts.md, "Limits"). */
export const SIGN_UPS_PER_ADDRESS = 20;

const BUCKET = 'sign-ups';

/**
 * The per-address count of sign-up submissions, taken before the password is checked and
 * hashed: each accepted form costs a zxcvbn estimate and a scrypt hash (32 MiB), so one address
 * may not make the service compute them without bound. Counted in the rate limiter's shared
 * storage (Redis across instances, fail-open per docs/adr/0002), in fixed 15-minute windows.
 */
@Injectable()
export class SignUpAttempts {
  constructor(
    private readonly storage: LimiterThrottlerStorage,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  async take(clientAddress: string): Promise<QuotaOutcome> {
    const key = `${this.config.rateLimitKeyPrefix}sign-up:ip:${clientAddress}`;
    const record = await this.storage.increment(
      key,
      QUOTA_WINDOW_MS,
      SIGN_UPS_PER_ADDRESS,
      QUOTA_WINDOW_MS,
      BUCKET,
    );
    return record.isBlocked
      ? { kind: 'throttled', retryAfterSeconds: record.timeToBlockExpire }
      : { kind: 'allowed' };
  }
}
