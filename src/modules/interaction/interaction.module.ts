import { Module } from '@nestjs/common';
import { AccountPageModule } from './account-page/account-page.module';
import { AuthorizationPagesModule } from './authorization-pages/authorization-pages.module';
import { EmailVerificationModule } from './email-verification/email-verification.module';
import { OneTimeCodesModule } from './one-time-codes/one-time-codes.module';
import { PasswordResetModule } from './password-reset/password-reset.module';
import { SignUpModule } from './sign-up/sign-up.module';
import { UpstreamSignInModule } from './upstream-sign-in/upstream-sign-in.module';
import { DevicePagesModule } from './device/device-pages.module';

/**
 * Every browser step of signing in (docs/architecture.md, "Where is…"): the pages of an
 * authorization request (login, select-account, consent, logout), sign-up, password reset, email
 * verification, upstream sign-in and binding, the account page, and the device page (RFC 8628). They reach the protocol
 * through one seam, PendingInteractions (pending-interactions.ts) over OAuthModule's exports; the
 * protocol never renders a page.
 */
@Module({
  imports: [
    AuthorizationPagesModule,
    OneTimeCodesModule,
    SignUpModule,
    EmailVerificationModule,
    PasswordResetModule,
    UpstreamSignInModule,
    AccountPageModule,
    DevicePagesModule,
  ],
})
export class InteractionModule {}
