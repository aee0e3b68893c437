import { Module } from '@nestjs/common';
import { ApplicationsModule } from '../../applications/applications.module';
import { AuditModule } from '../../audit/audit.module';
import { PasskeysModule } from '../../passkeys/passkeys.module';
import { SessionsModule } from '../../sessions/sessions.module';
import { UpstreamIdentitiesModule } from '../../upstreams/identities/upstream-identities.module';
import { UpstreamProvidersModule } from '../../upstreams/providers/upstream-providers.module';
import { UsersModule } from '../../users/users.module';
import { EmailVerificationModule } from '../email-verification/email-verification.module';
import { StepUpModule } from '../step-up/step-up.module';
import { AccountAddressesService } from './account-addresses.service';
import { AccountApplicationsService } from './account-applications.service';
import { AccountEmails } from './account-emails';
import { AccountFormsService } from './account-forms.service';
import { AccountPasswordService } from './account-password.service';
import { AccountProfileService } from './account-profile.service';
import { AccountSignInService } from './account-sign-in.service';
import { AccountViewService } from './account-view.service';
import { AccountPageController } from './account-page.controller';
import { AccountPasskeyOptionsGuard } from './account-passkey-options.guard';
import { SignInModule } from '../sign-in/sign-in.module';
import { RateLimitModule } from '../../rate-limit/rate-limit.module';

/**
 * The end user's account page at /account (docs/accounts.md): server-rendered, on the OAuth
 * pages' session; its script changes passkeys and connected accounts through the console API,
 * whose step-up rules therefore stay in one place.
 */
@Module({
  imports: [
    SessionsModule, // the session, the throttled password check, CSRF tokens, sign-ins
    UsersModule, // profile, emails, password hash; an application's grant and its revocation
    ApplicationsModule, // names and logos of the authorized applications
    AuditModule, // a password change is audited
    PasskeysModule, // the passkeys listed
    SignInModule, // password and passkey sign-in, shared by the login page and the account page
    RateLimitModule, // RateLimitGuard: the per-address quota of passkey sign-in starts
    UpstreamIdentitiesModule, // the connected accounts listed
    UpstreamProvidersModule, // their providers' names, and the ones left to connect
    EmailVerificationModule, // sends, checks and applies the codes that verify an address
    StepUpModule, // the step-up of a new password or address (shared with email verification)
  ],
  controllers: [AccountPageController],
  providers: [
    AccountFormsService, // every form's session and CSRF check
    AccountViewService, // GET /account and the page shown again with a refusal
    AccountSignInService, // sign-in (password, passkey) and sign-out
    AccountProfileService,
    AccountAddressesService, // "Send a verification code" and the code page (with AccountEmails)
    AccountEmails,
    AccountPasswordService,
    AccountApplicationsService, // the authorized applications and revoking one's access
    AccountPasskeyOptionsGuard,
  ],
})
export class AccountPageModule {}
