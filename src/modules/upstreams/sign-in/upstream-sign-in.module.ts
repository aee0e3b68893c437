import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Application } from '../../applications/application.entity';
import { AuditModule } from '../../audit/audit.module';
import { OAuthModule } from '../../oauth/oauth.module';
import { RateLimitModule } from '../../rate-limit/rate-limit.module';
import { SessionsModule } from '../../sessions/sessions.module';
import { UpstreamIdentitiesModule } from '../identities/upstream-identities.module';
import { UpstreamProvidersModule } from '../providers/upstream-providers.module';
import { UpstreamSignInController } from './upstream-sign-in.controller';
import { UpstreamSignInService } from './upstream-sign-in.service';

/**
 * Sign-in through upstream providers, direct entry and the required-upstream bind page. It
 * continues OAuth requests (imports OAuthModule), while OAuthModule imports only the providers
 * and identities modules (login page, userinfo), so the Nest modules of this feature form no
 * cycle with oauth.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Application]),
    OAuthModule, // continues pending authorization requests
    SessionsModule, // signs in, with the pages' sessions and CSRF tokens
    AuditModule, // binding is recorded in the audit log
    UpstreamProvidersModule,
    UpstreamIdentitiesModule,
    RateLimitModule, // RateLimitGuard: the per-address quota of callbacks
  ],
  controllers: [UpstreamSignInController],
  providers: [UpstreamSignInService],
  // The console's account routes start a binding through it.
  exports: [UpstreamSignInService],
})
export class UpstreamSignInModule {}
