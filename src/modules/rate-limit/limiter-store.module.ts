import { Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { LimiterStore } from './limiter-store';
import { LimiterThrottlerStorage } from './limiter-throttler-storage';
import { createLimiterRedis, REDIS_CLIENT } from './redis-client';

/**
 * The counters behind every limit: the one Redis client of the process, the LimiterStore with its
 * fail-open policy (docs/adr/0002) and the throttler storage over it. A module of its own so that
 * ThrottlerModule's options factory can import it (rate-limit.module.ts).
 */
@Module({
  providers: [
    { provide: REDIS_CLIENT, inject: [AppConfig], useFactory: createLimiterRedis },
    LimiterStore,
    LimiterThrottlerStorage,
  ],
  exports: [LimiterStore, LimiterThrottlerStorage],
})
export class LimiterStoreModule {}
