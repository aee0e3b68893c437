import { Module } from '@nestjs/common';
import { OAuthModule } from '../../oauth/oauth.module';
import { PageExceptionFilter } from '../../pages/page-exception.filter';
import { SignInModule } from '../sign-in/sign-in.module';
import { RateLimitModule } from '../../rate-limit/rate-limit.module';
import { SessionsModule } from '../../sessions/sessions.module';
import { UpstreamProvidersModule } from '../../upstreams/providers/upstream-providers.module';
import { PendingInteractionsModule } from '../pending-interactions.module';
import { InteractionService } from './interaction.service';
import { LogoutService } from './logout.service';
import { OAuthPagesController } from './oauth-pages.controller';
import { OidcPageAliasController } from './oidc-page-aliases.controller';
import { SelectAccountService } from './select-account.service';

/**
 * The pages of an authorization request (docs/oauth.md): the authorization endpoint's browser
 * face, login (password and passkey), select-account, consent and logout, and the original
 * service's aliases of them. The protocol (OAuthModule) decides; these pages ask the person.
 */
@Module({
  imports: [
    PendingInteractionsModule, // the pending authorization request (the protocol seam)
    OAuthModule, // the authorization request, its grant and the end-session checks
    SessionsModule, // the pages' sessions, password login and CSRF tokens
    UpstreamProvidersModule, // the login page offers the enabled providers
    SignInModule, // password and passkey sign-in, shared by the login page and the account page
    RateLimitModule, // RateLimitGuard: the per-address quota of passkey sign-in starts
  ],
  controllers: [OAuthPagesController, OidcPageAliasController],
  providers: [InteractionService, SelectAccountService, LogoutService, PageExceptionFilter],
  exports: [InteractionService],
})
export class AuthorizationPagesModule {}
