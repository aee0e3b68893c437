import { Module } from '@nestjs/common';
import { AuditModule } from '../../audit/audit.module';
import { OAuthModule } from '../../oauth/oauth.module';
import { RateLimitModule } from '../../rate-limit/rate-limit.module';
import { SessionsModule } from '../../sessions/sessions.module';
import { UpstreamProvidersModule } from '../../upstreams/providers/upstream-providers.module';
import { OneTimeCodesModule } from '../one-time-codes/one-time-codes.module';
import { PendingInteractionsModule } from '../pending-interactions.module';
import { SignUpAccounts } from './sign-up-accounts';
import { SignUpAttempts } from './sign-up-attempts';
import { SignUpBrowser } from './sign-up-browser';
import { SignUpChecks } from './sign-up-checks';
import { SignUpCodeService } from './sign-up-code.service';
import { SignUpFormService } from './sign-up-form.service';
import { SignUpMail } from './sign-up-mail';
import { SignUpOffer } from './sign-up-offer';
import { SignUpViews } from './sign-up-views';
import { SignUpController } from './sign-up.controller';

/**
 * Sign-up on the login pages (docs/accounts.md, "Sign-up"): the form, the emailed code, the new
 * account, and the authorization continuing as after a login. Verify-first: the form
 * (SignUpFormService) checks what it is sent and mails a code, or a notice to an address that
 * has an account while answering exactly as for a new one; the code page (SignUpCodeService)
 * makes the account (SignUpAccounts) in the transaction that spends the code, only in the
 * browser that submitted the form (SignUpBrowser).
 */
@Module({
  imports: [
    PendingInteractionsModule, // the pending authorization request (the protocol seam)
    OAuthModule, // continues the pending authorization request
    SessionsModule, // signs the new account in; CSRF; the password hashing queue
    OneTimeCodesModule, // the emailed code (and the mailer)
    UpstreamProvidersModule, // whether the request offers password sign-in
    RateLimitModule, // the per-address count of sign-ups
    AuditModule, // an account made by sign-up is audited
  ],
  controllers: [SignUpController],
  providers: [
    SignUpFormService,
    SignUpCodeService,
    SignUpOffer,
    SignUpChecks,
    SignUpMail,
    SignUpAccounts,
    SignUpViews,
    SignUpAttempts,
    SignUpBrowser,
  ],
})
export class SignUpModule {}
