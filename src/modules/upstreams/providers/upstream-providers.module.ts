import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UpstreamProviderRecord } from './upstream-provider.entity';
import { UpstreamProvidersService } from './upstream-providers.service';

/** Configured upstream identity providers and their protocol clients (docs/upstreams.md). */
@Module({
  imports: [TypeOrmModule.forFeature([UpstreamProviderRecord])],
  providers: [UpstreamProvidersService],
  exports: [UpstreamProvidersService],
})
export class UpstreamProvidersModule {}
