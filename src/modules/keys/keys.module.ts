import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKey } from './api-key.entity';
import { ApiKeysService } from './api-keys.service';

/**
 * API keys and their lifecycle, without the HTTP side: the admin CLI imports this module and
 * boots neither the guard nor the rate limiter (api-key-guard.module.ts holds those).
 */
@Module({
  imports: [TypeOrmModule.forFeature([ApiKey])],
  providers: [ApiKeysService],
  exports: [ApiKeysService],
})
export class KeysModule {}
