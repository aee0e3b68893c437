import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { nameOf, PROFILE_NAMES, type ProfileName } from '../../applications/security-profile';
import { CLIENT_AUTH_METHODS, type Application } from '../../applications/application.entity';
import {
  DEFAULT_ID_TOKEN_SIGNING_ALG,
  ID_TOKEN_SIGNING_ALGS,
} from '../../../common/crypto/signing-algs';
import { CONSOLE_ROLES, type ConsoleRole } from '../roles/console-access.service';

/** An application in the console's list: what every role may see. */
export class ApplicationSummary {
  @ApiProperty() id!: number;
  @ApiProperty() name!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ description: 'URL, or empty' }) logo!: string;
  @ApiProperty({ description: 'URL, or empty' }) homeUrl!: string;
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ enum: CONSOLE_ROLES, description: "The signed-in user's role" }) role!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

/**
 * One application. Admins and the owner also get the client and its settings; a viewer gets
 * the summary fields only (no client id, redirect URIs or settings; docs/console.md).
 */
export class ApplicationDetail extends ApplicationSummary {
  @ApiPropertyOptional({ description: 'admin and owner only' }) clientId?: string;
  @ApiPropertyOptional({ enum: CLIENT_AUTH_METHODS, description: 'admin and owner only' })
  clientAuthMethod?: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description:
      'admin and owner only, private_key_jwt clients only: the registered JWK Set (public keys), or null when jwksUri is used',
  })
  jwks?: object | null;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      'admin and owner only, private_key_jwt clients only: where the JWK Set is fetched, or null',
  })
  jwksUri?: string | null;
  @ApiPropertyOptional({ type: [String], description: 'admin and owner only' })
  redirectUris?: string[];
  @ApiPropertyOptional({
    type: [String],
    description:
      'admin and owner only: where RP-initiated logout may return (exact match, docs/oidc.md)',
  })
  postLogoutRedirectUris?: string[];
  @ApiPropertyOptional({ description: 'admin and owner only' }) isPublic?: boolean;
  @ApiPropertyOptional({ description: 'admin and owner only' }) requireVerifiedEmail?: boolean;
  @ApiPropertyOptional({
    description:
      'admin and owner only: whether the login page offers "Create an account" (when SIGNUP_ENABLED allows it; docs/accounts.md)',
  })
  signUpEnabled?: boolean;
  @ApiPropertyOptional({
    description:
      'admin and owner only: whether /oauth2/authorize takes only pushed authorization requests from this client (RFC 9126 section 5; docs/oauth.md)',
  })
  requirePushedAuthorizationRequests?: boolean;
  @ApiPropertyOptional({
    description:
      'admin and owner only: whether every token request of this client must carry a DPoP proof (RFC 9449 section 5.2; docs/oauth.md)',
  })
  dpopBoundAccessTokens?: boolean;
  @ApiPropertyOptional({
    description:
      'admin and owner only: whether this client is registered for the device authorization grant (RFC 8628; docs/oauth.md)',
  })
  deviceCodeGrant?: boolean;
  @ApiPropertyOptional({
    enum: PROFILE_NAMES,
    description:
      'admin and owner only: the security profile the client runs under (docs/oidc.md, "FAPI 2.0 Security Profile"), `none` for none',
  })
  securityProfile?: ProfileName;
  @ApiPropertyOptional({
    enum: ID_TOKEN_SIGNING_ALGS,
    description:
      'admin and owner only: the JWS alg of the id_tokens of this client (RS256 unless set; docs/oidc.md, "Signing keys")',
  })
  idTokenSignedResponseAlg?: string;
  @ApiPropertyOptional({
    type: [String],
    description:
      'admin and owner only: upstream provider ids of which a user must have one bound to use the application',
  })
  requiredUpstreams?: string[];
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description:
      'admin and owner only: where logout tokens go (OpenID Connect Back-Channel Logout 1.0; docs/oidc.md, "Back-channel logout"), null for none',
  })
  backchannelLogoutUri?: string | null;
  @ApiPropertyOptional({
    description:
      'admin and owner only: `backchannel_logout_session_required` as registered (every logout token carries `sid` anyway)',
  })
  backchannelLogoutSessionRequired?: boolean;
  @ApiPropertyOptional({ format: 'date-time', description: 'admin and owner only' })
  updatedAt?: string;
}

/** Answer of create and of a settings change: the detail plus a client secret shown once. */
export class ApplicationWithSecret extends ApplicationDetail {
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'The new client secret, shown this once: on creation of a `secret` client, and when a change to `secret` issued one; otherwise null',
  })
  clientSecret!: string | null;
}

export class ClientSecretView {
  @ApiProperty({ description: 'The new client secret, shown this once; the old one stops working' })
  clientSecret!: string;
}

export function toSummary(application: Application, role: ConsoleRole): ApplicationSummary {
  return {
    id: application.id,
    name: application.name,
    description: application.description,
    logo: application.logo,
    homeUrl: application.homeUrl,
    enabled: application.enabled,
    role,
    createdAt: application.createdAt.toISOString(),
  };
}

export function toDetail(application: Application, role: ConsoleRole): ApplicationDetail {
  const summary = toSummary(application, role);
  if (role === 'viewer') return summary;
  return {
    ...summary,
    clientId: application.clientId,
    clientAuthMethod: application.clientAuthMethod,
    // Only for the method that has keys: the answer for the other clients is unchanged.
    ...(application.clientAuthMethod === 'private_key_jwt'
      ? { jwks: application.jwks, jwksUri: application.jwksUri }
      : {}),
    redirectUris: [...application.redirectUris],
    postLogoutRedirectUris: [...application.postLogoutRedirectUris],
    isPublic: application.isPublic,
    requireVerifiedEmail: application.requireVerifiedEmail,
    signUpEnabled: application.signUpEnabled,
    requirePushedAuthorizationRequests: application.requirePushedAuthorizationRequests,
    dpopBoundAccessTokens: application.dpopBoundAccessTokens,
    deviceCodeGrant: application.deviceCodeGrant,
    securityProfile: nameOf(application.securityProfile),
    idTokenSignedResponseAlg: application.idTokenSignedResponseAlg ?? DEFAULT_ID_TOKEN_SIGNING_ALG,
    requiredUpstreams: [...application.requiredUpstreams],
    backchannelLogoutUri: application.backchannelLogoutUri,
    backchannelLogoutSessionRequired: application.backchannelLogoutSessionRequired,
    updatedAt: application.updatedAt.toISOString(),
  };
}
