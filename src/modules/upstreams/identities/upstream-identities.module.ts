import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UpstreamIdentity } from './upstream-identity.entity';
import { UpstreamIdentitiesService } from './upstream-identities.service';

/** Bound upstream accounts: used by the sign-in flow, userinfo and the console. */
@Module({
  imports: [TypeOrmModule.forFeature([UpstreamIdentity])],
  providers: [UpstreamIdentitiesService],
  exports: [UpstreamIdentitiesService],
})
export class UpstreamIdentitiesModule {}
