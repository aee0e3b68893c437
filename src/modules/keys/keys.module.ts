import { Module } from '@nestjs/common';
import { APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKey } from './api-key.entity';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeysService } from './api-keys.service';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { ScopeDeclarationCheck } from './scope-declarations';

@Module({
  imports: [TypeOrmModule.forFeature([ApiKey]), RateLimitModule, DiscoveryModule],
  providers: [ApiKeysService, { provide: APP_GUARD, useClass: ApiKeyGuard }, ScopeDeclarationCheck],
  exports: [ApiKeysService],
})
export class KeysModule {}
