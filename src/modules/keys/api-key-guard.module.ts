import { Module } from '@nestjs/common';
import { APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ApiKeyGuard } from './api-key.guard';
import { KeysModule } from './keys.module';
import { ScopeDeclarationCheck } from './scope-declarations';

/** The HTTP side of API keys: the global guard (with its rate limits) and the scope check. */
@Module({
  imports: [KeysModule, RateLimitModule, DiscoveryModule],
  providers: [{ provide: APP_GUARD, useClass: ApiKeyGuard }, ScopeDeclarationCheck],
})
export class ApiKeyGuardModule {}
