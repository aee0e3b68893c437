import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Clock } from '../../common/clock';
import { AppConfig } from '../../config/app-config';
import type { ApiApplication } from '../applications/api-application-sql';
import { windowAt } from './fixed-window';
import { LimiterStore } from './limiter-store';
import { rateLimited, setRateLimitHeaders } from './rate-limit.headers';

const APP_BUCKET = 'app';
const CLIENT_BUCKET = 'unauthenticated';

/**
 * The application API's rate limits (spec section 8; docs/rate-limit.md):
 * one bucket per application shared by all its keys and instances, and, for requests that
 * fail authentication and so cannot be charged to an application, one bucket per client address.
 */
@Injectable()
export class RateLimiter {
  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly store: LimiterStore,
    private readonly clock: Clock,
  ) {}

  /** Charges the application's bucket and sets X-RateLimit-*; throws 429 once the bucket is empty. */
  async chargeApplication(
    application: Pick<ApiApplication, 'id' | 'rateLimitPerMinute'>,
    response: Response,
  ): Promise<void> {
    if (!this.config.rateLimitEnabled) return;
    const window = windowAt(this.clock.now());
    const limit = application.rateLimitPerMinute ?? this.config.rateLimitPerMinute;
    const key = `${this.config.rateLimitKeyPrefix}app:${application.id}:${window.index}`;
    const count = await this.store.increment(key, window.storageTtlMs, APP_BUCKET);
    setRateLimitHeaders(response, { limit, count, window });
    if (count > limit) {
      throw rateLimited(response, window, 'Rate limit of the application exceeded');
    }
  }

  /**
   * After a failed authentication: charges the client address; 429 instead of 401 once over.
   * Only failures are charged, so a valid key is never refused because other callers at the
   * same address (a NAT, a proxy) failed (docs/rate-limit.md).
   */
  async chargeFailedAuthentication(request: Request, response: Response): Promise<void> {
    if (!this.config.rateLimitEnabled) return;
    const window = windowAt(this.clock.now());
    const limit = this.config.rateLimitUnauthenticatedPerMinute;
    // request.ip honours TRUST_PROXY_HOPS, so behind a proxy it is the client, not the proxy.
    const key = `${this.config.rateLimitKeyPrefix}ip:${request.ip ?? 'unknown'}:${window.index}`;
    const count = await this.store.increment(key, window.storageTtlMs, CLIENT_BUCKET);
    if (count <= limit) return;
    setRateLimitHeaders(response, { limit, count, window });
    throw rateLimited(
      response,
      window,
      'Too many requests with a missing or invalid API key from this address',
    );
  }
}
