import { Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '../../config/app-config';
import { LimiterStoreModule } from './limiter-store.module';
import { LimiterThrottlerStorage } from './limiter-throttler-storage';
import { throttlerOptions } from './throttlers';

/**
 * Rate limits through @nestjs/throttler (docs/rate-limit.md): its module (global) configured with
 * the named throttlers of throttlers.ts and the LimiterStore-backed storage. The API-key pipeline
 * registers ApiRateLimitGuard; routes with a per-address quota use RateLimitGuard and @Throttle;
 * the login throttle and the readiness check use the exported store.
 */
@Module({
  imports: [
    LimiterStoreModule,
    ThrottlerModule.forRootAsync({
      imports: [LimiterStoreModule],
      inject: [AppConfig, LimiterThrottlerStorage],
      useFactory: throttlerOptions,
    }),
  ],
  exports: [LimiterStoreModule],
})
export class RateLimitModule {}
