import { Module } from '@nestjs/common';
import { PendingInteractionsModule } from '../pending-interactions.module';
import { AuditModule } from '../../audit/audit.module';
import { OAuthModule } from '../../oauth/oauth.module';
import { SessionsModule } from '../../sessions/sessions.module';
import { UpstreamProvidersModule } from '../../upstreams/providers/upstream-providers.module';
import { UsersModule } from '../../users/users.module';
import { OneTimeCodesModule } from '../one-time-codes/one-time-codes.module';
import { ForgotPasswordService } from './forgot-password.service';
import { MailAfterAnswer } from './mail-after-answer';
import { PasswordResetController } from './password-reset.controller';
import { ResetPasswordService } from './reset-password.service';

/**
 * Password reset by an emailed code (docs/accounts.md, "Password reset"): the forgot-password
 * and reset pages under /oauth2. It continues OAuth requests (imports OAuthModule) as the
 * upstream sign-in does; OAuthModule knows nothing of it.
 */
@Module({
  imports: [
    PendingInteractionsModule, // the pending authorization request (the protocol seam)
    OneTimeCodesModule, // the codes, and the Mailer
    UsersModule, // finds the account of an address, stores the new password
    SessionsModule, // ends the account's sessions, signs this browser in, CSRF tokens
    AuditModule, // the reset is recorded in the audit log
    OAuthModule, // continues the pending authorization request
    UpstreamProvidersModule, // whether the request offers the password form at all
  ],
  controllers: [PasswordResetController],
  providers: [ForgotPasswordService, ResetPasswordService, MailAfterAnswer],
})
export class PasswordResetModule {}
