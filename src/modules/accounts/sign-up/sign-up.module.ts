import { Module } from '@nestjs/common';
import { AuditModule } from '../../audit/audit.module';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Application } from '../../applications/application.entity';
import { OAuthModule } from '../../oauth/oauth.module';
import { RateLimitModule } from '../../rate-limit/rate-limit.module';
import { SessionsModule } from '../../sessions/sessions.module';
import { UpstreamProvidersModule } from '../../upstreams/providers/upstream-providers.module';
import { OneTimeCodesModule } from '../one-time-codes/one-time-codes.module';
import { PendingInteractions } from '../pending-interaction';
import { SignUpAttempts } from './sign-up-attempts';
import { SignUpBrowser } from './sign-up-browser';
import { SignUpController } from './sign-up.controller';
import { SignUpService } from './sign-up.service';

/**
 * Sign-up on the login pages (docs/accounts.md, "Sign-up"): the form, the emailed code, the new
 * account, and the authorization continuing as after a login.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Application]),
    OAuthModule, // continues the pending authorization request
    SessionsModule, // signs the new account in; CSRF; the password hashing queue
    OneTimeCodesModule, // the emailed code (and the mailer)
    UpstreamProvidersModule, // whether the request offers password sign-in
    RateLimitModule, // the per-address count of sign-ups
    AuditModule, // an account made by sign-up is audited
  ],
  controllers: [SignUpController],
  providers: [SignUpService, SignUpAttempts, SignUpBrowser, PendingInteractions],
})
export class SignUpModule {}
