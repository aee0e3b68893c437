import { Module } from '@nestjs/common';
import { OneTimeCodesModule } from './one-time-codes/one-time-codes.module';
import { PasswordResetModule } from './password-reset/password-reset.module';

/**
 * Self-service accounts for end users (docs/accounts.md): the emailed one-time codes and the
 * flows built on them.
 */
@Module({
  imports: [OneTimeCodesModule, PasswordResetModule],
})
export class AccountsModule {}
