import { Module } from '@nestjs/common';
import { AccountPageModule } from './account-page/account-page.module';
import { OneTimeCodesModule } from './one-time-codes/one-time-codes.module';

/**
 * Self-service accounts for end users (docs/accounts.md): the emailed one-time codes and the
 * flows built on them.
 */
@Module({
  imports: [OneTimeCodesModule, AccountPageModule],
})
export class AccountsModule {}
