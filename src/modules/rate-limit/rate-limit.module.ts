import { Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { AddressQuota } from './address-quota';
import { LimiterStore } from './limiter-store';
import { RateLimiter } from './rate-limiter.service';
import { createLimiterRedis, REDIS_CLIENT } from './redis-client';

/**
 * Rate limits of the application API (spec section 8), used by the API-key guard; the store and
 * the per-address quotas the sign-in routes count in.
 */
@Module({
  providers: [
    { provide: REDIS_CLIENT, inject: [AppConfig], useFactory: createLimiterRedis },
    LimiterStore,
    RateLimiter,
    AddressQuota,
  ],
  exports: [RateLimiter, LimiterStore, AddressQuota],
})
export class RateLimitModule {}
