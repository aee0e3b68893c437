import { Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { LimiterStore } from './limiter-store';
import { RateLimiter } from './rate-limiter.service';
import { createLimiterRedis, REDIS_CLIENT } from './redis-client';

/** Rate limits of the application API (spec section 8); used by the API-key guard. */
@Module({
  providers: [
    { provide: REDIS_CLIENT, inject: [AppConfig], useFactory: createLimiterRedis },
    LimiterStore,
    RateLimiter,
  ],
  exports: [RateLimiter, LimiterStore],
})
export class RateLimitModule {}
