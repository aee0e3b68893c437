import { Module } from '@nestjs/common';
import { APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { ApiRateLimitGuard } from '../rate-limit/rate-limit.guard';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeyScopeGuard } from './api-key-scope.guard';
import { KeysModule } from './keys.module';
import { ScopeDeclarationCheck } from './scope-declarations';

/**
 * The HTTP side of API keys: the global guards and the scope check. Global guards run in the
 * order they are registered, and this order is the pipeline: authenticate → rate limit
 * (@nestjs/throttler) → 401/403 (api-key.guard.ts).
 */
@Module({
  imports: [KeysModule, RateLimitModule, DiscoveryModule],
  providers: [
    { provide: APP_GUARD, useClass: ApiKeyGuard },
    { provide: APP_GUARD, useClass: ApiRateLimitGuard },
    { provide: APP_GUARD, useClass: ApiKeyScopeGuard },
    ScopeDeclarationCheck,
  ],
})
export class ApiKeyGuardModule {}
