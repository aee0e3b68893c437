import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Clock } from '../../common/clock';
import { AppConfig } from '../../config/app-config';
import type { Application } from '../applications/application.entity';
import { windowAt } from './fixed-window';
import { LimiterStore } from './limiter-store';
import { BucketState, rateLimited, setRateLimitHeaders } from './rate-limit.headers';

const APP_BUCKET = 'app';
const CLIENT_BUCKET = 'unauthenticated';
/**
 * How long an instance trusts "this address is not blocked" before asking the store again.
 * Saves a Redis round trip on nearly every authenticated request; the cost is that a block
 * earned through other instances is noticed here up to this late (docs/rate-limit.md).
 */
const CLEAR_ADDRESS_MEMO_MS = 1000;
const MAX_MEMO_ENTRIES = 10_000;

/**
 * The application API's rate limits (spec section 8; docs/rate-limit.md):
 * one bucket per application shared by all its keys and instances, and, for requests that
 * fail authentication and so cannot be charged to an application, one bucket per client address.
 */
@Injectable()
export class RateLimiter {
  /** Address bucket key → until when (ms) it is known to be under its limit. */
  private readonly clearAddresses = new Map<string, number>();

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly store: LimiterStore,
    private readonly clock: Clock,
  ) {}

  /** Charges the application's bucket and sets X-RateLimit-*; throws 429 once the bucket is empty. */
  async chargeApplication(application: Application, response: Response): Promise<void> {
    if (!this.config.rateLimitEnabled) return;
    const window = windowAt(this.clock.now());
    const limit = application.rateLimitPerMinute ?? this.config.rateLimitPerMinute;
    const key = `${this.config.rateLimitKeyPrefix}app:${application.id}:${window.index}`;
    const count = await this.store.increment(key, limit, window.storageTtlMs, APP_BUCKET);
    setRateLimitHeaders(response, { limit, count, window });
    if (count > limit) {
      throw rateLimited(response, window, 'Rate limit of the application exceeded');
    }
  }

  /**
   * Before authentication: an address that has used up its failed-authentication budget gets
   * 429 whatever key it presents, so a blocked client cannot learn which guess was valid.
   */
  async rejectBlockedClient(request: Request, response: Response): Promise<void> {
    if (!this.config.rateLimitEnabled) return;
    const now = this.clock.now();
    const window = windowAt(now);
    const limit = this.config.rateLimitUnauthenticatedPerMinute;
    const key = this.clientKey(request, window.index);
    if ((this.clearAddresses.get(key) ?? 0) > now.getTime()) return;
    const count = await this.store.peek(key, CLIENT_BUCKET);
    if (count >= limit) this.throwClientLimited(response, { limit, count, window });
    if (this.clearAddresses.size >= MAX_MEMO_ENTRIES) this.clearAddresses.clear();
    this.clearAddresses.set(key, now.getTime() + CLEAR_ADDRESS_MEMO_MS);
  }

  /** After a failed authentication: charges the client address; 429 instead of 401 once over. */
  async chargeFailedAuthentication(request: Request, response: Response): Promise<void> {
    if (!this.config.rateLimitEnabled) return;
    const window = windowAt(this.clock.now());
    const limit = this.config.rateLimitUnauthenticatedPerMinute;
    const key = this.clientKey(request, window.index);
    this.clearAddresses.delete(key); // this address's count changed: ask the store next time
    const count = await this.store.increment(key, limit, window.storageTtlMs, CLIENT_BUCKET);
    if (count > limit) this.throwClientLimited(response, { limit, count, window });
  }

  private throwClientLimited(response: Response, state: BucketState): never {
    setRateLimitHeaders(response, state);
    throw rateLimited(
      response,
      state.window,
      'Too many requests with a missing or invalid API key from this address',
    );
  }

  /** request.ip honours TRUST_PROXY_HOPS, so behind a proxy it is the client, not the proxy. */
  private clientKey(request: Request, windowIndex: number): string {
    return `${this.config.rateLimitKeyPrefix}ip:${request.ip ?? 'unknown'}:${windowIndex}`;
  }
}
