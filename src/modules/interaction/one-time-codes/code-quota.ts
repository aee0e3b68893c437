import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { sha256Hex } from '../../../common/crypto/hash';
import { emailKey } from '../../users/account-names';
import { LimiterThrottlerStorage } from '../../rate-limit/limiter-throttler-storage';

/** Codes are counted in fixed one-hour windows. */
export const CODE_QUOTA_WINDOW_SECONDS = 3600;
const WINDOW_MS = CODE_QUOTA_WINDOW_SECONDS * 1000;
/** Emails with a code sent to one address per window, whoever asks (mail bombing). */
export const CODES_PER_EMAIL = 5;
/** Codes sent for one account per window, whatever the address. */
export const CODES_PER_ACCOUNT = 10;
/** Codes one client address may ask for per window, whatever the email addresses. */
export const CODES_PER_CLIENT_ADDRESS = 30;

const BUCKET = 'one-time-codes';

export type QuotaOutcome = { kind: 'allowed' } | { kind: 'throttled'; retryAfterSeconds: number };

/**
 * How many codes may be emailed (docs/accounts.md, "Limits"): per recipient address, per
 * account and per client address, in the rate limiter's shared storage (Redis across instances,
 * the fail-open policy of docs/adr/0002). Every request for a code is counted, including those
 * for an address no account uses, so the limit itself tells nothing about which addresses exist.
 * Addresses are hashed into the keys: no email address is stored in Redis.
 */
@Injectable()
export class CodeQuota {
  constructor(
    private readonly storage: LimiterThrottlerStorage,
    private readonly config: AppConfig,
  ) {}

  async take(email: string, userId: string | null, clientAddress: string): Promise<QuotaOutcome> {
    const prefix = `${this.config.rateLimitKeyPrefix}codes:`;
    const counts: [string, number][] = [
      [`${prefix}ip:${clientAddress}`, CODES_PER_CLIENT_ADDRESS],
      [`${prefix}email:${sha256Hex(emailKey(email))}`, CODES_PER_EMAIL],
      ...(userId === null
        ? []
        : [[`${prefix}user:${userId}`, CODES_PER_ACCOUNT] as [string, number]]),
    ];
    for (const [key, limit] of counts) {
      const record = await this.storage.increment(key, WINDOW_MS, limit, WINDOW_MS, BUCKET);
      if (record.isBlocked) {
        return { kind: 'throttled', retryAfterSeconds: record.timeToBlockExpire };
      }
    }
    return { kind: 'allowed' };
  }
}
