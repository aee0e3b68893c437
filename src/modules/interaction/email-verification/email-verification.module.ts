import { Module } from '@nestjs/common';
import { OAuthModule } from '../../oauth/oauth.module';
import { SessionsModule } from '../../sessions/sessions.module';
import { OneTimeCodesModule } from '../one-time-codes/one-time-codes.module';
import { PendingInteractionsModule } from '../pending-interactions.module';
import { StepUpModule } from '../step-up/step-up.module';
import { EmailVerificationService } from './email-verification.service';
import { VerifyEmailController } from './verify-email.controller';
import { VerifyEmailPages } from './verify-email-pages.service';

/**
 * Proving an address is a signed-in user's (docs/accounts.md, "Email verification"):
 * EmailVerificationService, and the verification pages of an authorization whose application
 * requires a verified email.
 */
@Module({
  imports: [
    PendingInteractionsModule, // the pending authorization request (the protocol seam)
    OAuthModule, // continues the pending authorization request
    SessionsModule, // the signed-in user; CSRF
    OneTimeCodesModule, // the emailed code (and the mailer)
    StepUpModule, // the account page's step-up before a code goes to a typed address
  ],
  controllers: [VerifyEmailController],
  providers: [EmailVerificationService, VerifyEmailPages],
  // The account page verifies and adds addresses with the same service.
  exports: [EmailVerificationService],
})
export class EmailVerificationModule {}
