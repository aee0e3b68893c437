import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import cookieParser from 'cookie-parser';
import { Application } from '../applications/application.entity';
import { AuditModule } from '../audit/audit.module';
import { ConsoleModule } from '../console/console.module';
import { OAuthModule } from '../oauth/oauth.module';
import { PasskeysModule } from '../passkeys/passkeys.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { SessionsModule } from '../sessions/sessions.module';
import { UpstreamIdentitiesModule } from '../upstreams/identities/upstream-identities.module';
import { UpstreamProvidersModule } from '../upstreams/providers/upstream-providers.module';
import { AccountUpstreamsController } from './account-upstreams.controller';
import { UpstreamConfirmationChecks } from './confirmation-checks';
import { UpstreamFlowController } from './upstream-flow.controller';
import { UpstreamFlowService } from './upstream-flow.service';

/**
 * Sign-in through upstream providers, and direct entry. Its own folder, not under
 * upstreams/: it continues OAuth requests (imports oauth), while oauth imports upstreams for the
 * login page and userinfo, and feature folders must not import each other both ways.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Application]),
    OAuthModule, // continues pending authorization requests
    SessionsModule, // signs in, with the pages' sessions and CSRF tokens
    ConsoleModule, // the account page's list of bound upstreams
    AuditModule, // binding is recorded in the audit log
    PasskeysModule, // upstream.bind/unbind confirmations: their target checks, spending tokens
    UpstreamProvidersModule,
    UpstreamIdentitiesModule,
    RateLimitModule, // RateLimitGuard: the per-address quota of callbacks
  ],
  controllers: [UpstreamFlowController, AccountUpstreamsController],
  providers: [UpstreamFlowService, UpstreamConfirmationChecks],
})
export class UpstreamFlowModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(cookieParser()).forRoutes(UpstreamFlowController);
  }
}
