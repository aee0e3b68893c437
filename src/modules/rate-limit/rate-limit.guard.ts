import { ExecutionContext, Injectable } from '@nestjs/common';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerModuleOptions,
  type ThrottlerRequest,
} from '@nestjs/throttler';
import type { Response } from 'express';
import { PUBLIC_ROUTE } from '../../common/http/public.decorator';
import { RouteMetadata } from '../../common/http/route-metadata';
import { LimiterThrottlerStorage } from './limiter-throttler-storage';
import { rateLimited, setRateLimitHeaders } from './rate-limit.headers';
import { REFUSALS, type ThrottlerName } from './throttlers';

/**
 * @nestjs/throttler's guard with the contract's answers (docs/contract/README.md#rate-limits; docs/rate-limit.md): the
 * library resolves which named throttlers count this request (skipIf, @SkipThrottle, @Throttle
 * limits), their tracker and key; this counts in LimiterThrottlerStorage and answers with
 * X-RateLimit-Limit/-Remaining/-Reset (Reset in epoch seconds, no throttler-name suffix) and a
 * 429 `rate_limited` body with `retry_after` and Retry-After, as each throttler's Refusal says.
 *
 * Used as is on routes with a per-address quota: `@UseGuards(RateLimitGuard)` placed after the
 * route's own guards, so a request they refuse is not counted.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() private readonly limiterStorage: LimiterThrottlerStorage,
    reflector: RouteMetadata,
  ) {
    super(options, limiterStorage, reflector);
  }

  protected override async handleRequest(request: ThrottlerRequest): Promise<boolean> {
    const { context, limit, ttl, blockDuration, throttler, getTracker, generateKey } = request;
    const name = throttler.name as ThrottlerName;
    const { req, res } = this.getRequestResponse(context);
    const response = res as Response;
    const key = generateKey(context, await getTracker(req, context), name);
    const record = await this.limiterStorage.increment(key, ttl, limit, blockDuration, name);
    const refusal = REFUSALS[name];
    if (refusal.headers === 'always' || (refusal.headers === 'refused' && record.isBlocked)) {
      setRateLimitHeaders(response, { limit, count: record.totalHits, window: record.window });
    }
    if (record.isBlocked) throw rateLimited(response, record.window, refusal);
    return true;
  }
}

/**
 * The global one, the second step of the API-key pipeline (api-key-guard.module.ts):
 * ApiKeyGuard finds the application or the failed authentication, this charges it, the scope
 * guard refuses afterwards (so a 401 past the address budget is a 429, and a 403 is counted).
 * @Public() routes are left to the guards of their own route.
 */
@Injectable()
export class ApiRateLimitGuard extends RateLimitGuard {
  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    return Promise.resolve(this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets));
  }
}
