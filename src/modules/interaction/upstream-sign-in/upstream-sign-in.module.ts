import { Module } from '@nestjs/common';
import { PendingInteractionsModule } from '../pending-interactions.module';
import { AuditModule } from '../../audit/audit.module';
import { OAuthModule } from '../../oauth/oauth.module';
import { RateLimitModule } from '../../rate-limit/rate-limit.module';
import { SessionsModule } from '../../sessions/sessions.module';
import { UpstreamIdentitiesModule } from '../../upstreams/identities/upstream-identities.module';
import { UpstreamProvidersModule } from '../../upstreams/providers/upstream-providers.module';
import { UpstreamSignInController } from './upstream-sign-in.controller';
import { UpstreamBindingService } from './upstream-binding.service';
import { UpstreamCallbackService } from './upstream-callback.service';
import { UpstreamContinuation } from './upstream-continuation.service';
import { UpstreamStartService } from './upstream-start.service';
import { UpstreamTrips } from './upstream-trips.service';

/**
 * Sign-in through upstream providers, direct entry and the required-upstream bind page. It
 * continues OAuth requests (imports OAuthModule), while OAuthModule imports only the providers
 * and identities modules (login page, userinfo), so the Nest modules of this feature form no
 * cycle with oauth.
 */
@Module({
  imports: [
    PendingInteractionsModule, // the pending authorization request (the protocol seam)
    OAuthModule, // continues pending authorization requests
    SessionsModule, // signs in, with the pages' sessions and CSRF tokens
    AuditModule, // binding is recorded in the audit log
    UpstreamProvidersModule,
    UpstreamIdentitiesModule,
    RateLimitModule, // RateLimitGuard: the per-address quota of callbacks
  ],
  controllers: [UpstreamSignInController],
  providers: [
    UpstreamTrips, // the trip to the provider every flow shares
    UpstreamStartService, // sign-in, direct entry and binding starts
    UpstreamCallbackService, // the callback: single use, then sign-in or binding
    UpstreamBindingService, // the end of a binding trip
    UpstreamContinuation, // the authorization request continued after a trip
  ],
  // The console's account routes start a binding through it.
  exports: [UpstreamStartService],
})
export class UpstreamSignInModule {}
