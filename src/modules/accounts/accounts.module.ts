import { Module } from '@nestjs/common';
import { AccountPageModule } from './account-page/account-page.module';
import { EmailVerificationModule } from './email-verification/email-verification.module';
import { OneTimeCodesModule } from './one-time-codes/one-time-codes.module';
import { PasswordResetModule } from './password-reset/password-reset.module';
import { SignUpModule } from './sign-up/sign-up.module';

/**
 * Self-service accounts for end users (docs/accounts.md): the emailed one-time codes and the
 * flows built on them.
 */
@Module({
  imports: [
    OneTimeCodesModule,
    SignUpModule,
    EmailVerificationModule,
    PasswordResetModule,
    AccountPageModule,
  ],
})
export class AccountsModule {}
