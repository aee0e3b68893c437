import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Application } from '../applications/application.entity';
import { EventsModule } from '../events/events.module';
import { PasskeySignInModule } from '../console/passkeys/passkey-sign-in.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { SessionsModule } from '../sessions/sessions.module';
import { SigningKeysModule } from '../signing-keys/signing-keys.module';
import { TokensModule } from '../tokens/tokens.module';
import { User } from '../users/user.entity';
import { UpstreamIdentitiesModule } from '../upstreams/identities/upstream-identities.module';
import { UpstreamProvidersModule } from '../upstreams/providers/upstream-providers.module';
import { UsersModule } from '../users/users.module';
import { IdTokenService } from './token/id-token.service';
import { AuthorizeService } from './authorize/authorize.service';
import { EndSessionService } from './interaction/end-session.service';
import { GrantService } from './authorize/grant.service';
import { InteractionService } from './interaction/interaction.service';
import { SelectAccountService } from './interaction/select-account.service';
import { IntrospectionService } from './token-management/introspection.service';
import { LogoutService } from './interaction/logout.service';
import { AliasMetadataController, MetadataController } from './discovery/metadata.controller';
import { OAuthApiController } from './oauth-api.controller';
import {
  OidcApiAliasController,
  OidcPageAliasController,
} from './discovery/oidc-aliases.controller';
import { OAuthCode } from './oauth-code.entity';
import { OAuthPagesController } from './interaction/oauth-pages.controller';
import { OAuthSession } from '../sessions/oauth-session.entity';
import { PageExceptionFilter } from '../pages/page-exception.filter';
import { PendingAuthorizationsService } from './authorize/pending-authorizations.service';
import { RevocationService } from './token-management/revocation.service';
import { SpentAuthorizationRequest } from './spent-authorization-request.entity';
import { TokenIssuer } from './token/token-issuer';
import { TokenManagementController } from './token-management/token-management.controller';
import { TokenBatches } from './token/token-batches';
import { TokenService } from './token/token.service';
import { UserinfoService } from './userinfo/userinfo.service';

/** The OAuth 2.0 provider: authorize, login and consent pages, token, user info (docs/contract/oauth.md). */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      Application,
      User,
      OAuthCode,
      OAuthSession,
      SpentAuthorizationRequest,
    ]),
    EventsModule,
    TokensModule, // issues, rotates and revokes oauth_tokens
    UsersModule, // records an authorization on the relation
    SessionsModule, // the pages' sessions, password login and CSRF tokens
    UpstreamIdentitiesModule, // userinfo's upstreams; upstream sign-in finds or creates the user
    UpstreamProvidersModule, // the login page offers the enabled providers
    SigningKeysModule, // signs id_tokens; the end-session endpoint verifies id_token_hint
    PasskeySignInModule, // the login page's passkey sign-in (the console's passkeys)
    RateLimitModule, // RateLimitGuard: the per-address quota of passkey sign-in starts
  ],
  controllers: [
    OAuthPagesController,
    OAuthApiController,
    TokenManagementController,
    MetadataController,
    AliasMetadataController,
    OidcPageAliasController,
    OidcApiAliasController,
  ],
  providers: [
    AuthorizeService,
    EndSessionService,
    InteractionService,
    SelectAccountService,
    IntrospectionService,
    GrantService,
    LogoutService,
    PendingAuthorizationsService,
    RevocationService,
    TokenIssuer,
    TokenService,
    TokenBatches,
    IdTokenService,
    UserinfoService,
    PageExceptionFilter,
  ],
  // The upstream sign-in flow (upstreams/sign-in/) continues pending requests as a password login
  // does; sessions, the password login and CSRF are SessionsModule's (sessions/).
  exports: [AuthorizeService, PendingAuthorizationsService],
})
export class OAuthModule {}
