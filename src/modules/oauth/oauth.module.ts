import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Application } from '../applications/application.entity';
import { EventsModule } from '../events/events.module';
import { SessionsModule } from '../sessions/sessions.module';
import { SigningKeysModule } from '../signing-keys/signing-keys.module';
import { TokensModule } from '../tokens/tokens.module';
import { User } from '../users/user.entity';
import { UpstreamIdentitiesModule } from '../upstreams/identities/upstream-identities.module';
import { UsersModule } from '../users/users.module';
import { IdTokenService } from './token/id-token.service';
import { ClientAssertions } from './client-auth/client-assertions';
import { AuthorizeService } from './authorize/authorize.service';
import { EndSessionService } from './end-session/end-session.service';
import { GrantService } from './authorize/grant.service';
import { IntrospectionService } from './token-management/introspection.service';
import { AliasMetadataController, MetadataController } from './discovery/metadata.controller';
import { OAuthApiController } from './oauth-api.controller';
import { OidcApiAliasController } from './discovery/oidc-aliases.controller';
import { OAuthCode } from './oauth-code.entity';
import { OAuthSession } from '../sessions/oauth-session.entity';
import { PendingAuthorizationsService } from './authorize/pending-authorizations.service';
import { RevocationService } from './token-management/revocation.service';
import { SpentAuthorizationRequest } from './spent-authorization-request.entity';
import { TokenIssuer } from './token/token-issuer';
import { TokenManagementController } from './token-management/token-management.controller';
import { TokenBatches } from './token/token-batches';
import { TokenService } from './token/token.service';
import { UserinfoService } from './userinfo/userinfo.service';
import { DpopService } from './dpop/dpop.service';
import { PushedAuthorizationController } from './par/par.controller';
import { PushedAuthorizationService } from './par/par.service';
import { PushedRequestStore } from './par/pushed-requests.store';
import { DeviceAuthorizationController } from './device/device-authorization.controller';
import { DeviceAuthorizationService } from './device/device-authorization.service';
import { DeviceApprovals } from './device/device-approvals.service';

/**
 * The OAuth 2.0 provider's protocol (docs/contract/oauth.md): the authorization request and its
 * grant, pushed authorization requests, token, user info, revocation, introspection, discovery
 * and end-session checks. It renders no page: the pages that ask the person are the interaction
 * module's.
 */
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
    SigningKeysModule, // signs id_tokens; the end-session endpoint verifies id_token_hint
  ],
  controllers: [
    OAuthApiController,
    TokenManagementController,
    MetadataController,
    AliasMetadataController,
    OidcApiAliasController,
    PushedAuthorizationController,
    DeviceAuthorizationController,
  ],
  providers: [
    ClientAssertions, // private_key_jwt: found by authenticateClient through the data source
    AuthorizeService,
    EndSessionService,
    IntrospectionService,
    GrantService,
    PendingAuthorizationsService,
    RevocationService,
    TokenIssuer,
    TokenService,
    TokenBatches,
    IdTokenService,
    UserinfoService,
    DpopService,
    PushedAuthorizationService,
    PushedRequestStore,
    DeviceAuthorizationService,
    DeviceApprovals,
  ],
  // The one seam to the pages (modules/interaction): the pending authorization request, going on
  // with it once the person has answered, the grant a consent records, the end-session checks, and
  // a device authorization's approval (interaction/device/).
  exports: [
    AuthorizeService,
    PendingAuthorizationsService,
    GrantService,
    EndSessionService,
    DeviceApprovals,
  ],
})
export class OAuthModule {}
