import { ApiProperty } from '@nestjs/swagger';
import { DPOP_SIGNING_ALGS } from '../dpop/dpop-proof';
import { SUPPORTED_LOCALES } from '../../../common/i18n/i18n';
import {
  AUTH_SIGNING_ALGS,
  CLAIMS_SUPPORTED,
  GRANT_TYPES_SUPPORTED,
  ID_TOKEN_ALGS,
  INTROSPECTION_AUTH_METHODS,
  REVOCATION_AUTH_METHODS,
  TOKEN_AUTH_METHODS,
} from './supported-values';
import { ACR_VALUE } from '../protocol/oidc-claims';
import { OAUTH_SCOPES } from '../protocol/scopes';
import { INTERACTIVE_PROMPTS } from '../authorize/checks/check-prompt';

/**
 * OpenID Provider Metadata (OIDC Discovery 1.0 section 3), which is also this service's RFC 8414
 * section 2 authorization server metadata (discovery.ts).
 */
export class ProviderMetadata {
  @ApiProperty({ format: 'uri', description: 'PUBLIC_BASE_URL; also the `iss` of RFC 9207' })
  issuer!: string;

  @ApiProperty({ format: 'uri', example: 'https://id.example.com/oauth2/authorize' })
  authorization_endpoint!: string;

  @ApiProperty({ format: 'uri', example: 'https://id.example.com/api/oauth2/token' })
  token_endpoint!: string;

  @ApiProperty({ format: 'uri', example: 'https://id.example.com/api/oauth2/userinfo' })
  userinfo_endpoint!: string;

  @ApiProperty({ format: 'uri', example: 'https://id.example.com/api/oidc/jwks' })
  jwks_uri!: string;

  @ApiProperty({
    format: 'uri',
    example: 'https://id.example.com/oauth2/logout',
    description: 'OpenID Connect RP-Initiated Logout 1.0 (docs/oidc.md)',
  })
  end_session_endpoint!: string;

  @ApiProperty({
    enum: [true],
    description:
      'OpenID Connect Back-Channel Logout 1.0 section 2.1 (docs/oidc.md, "Back-channel logout")',
  })
  backchannel_logout_supported!: boolean;

  @ApiProperty({
    enum: [true],
    description: 'Every logout token carries `sid`, as every id_token of a session does',
  })
  backchannel_logout_session_supported!: boolean;

  @ApiProperty({ enum: OAUTH_SCOPES, isArray: true }) scopes_supported!: string[];
  @ApiProperty({ enum: ['code'], isArray: true }) response_types_supported!: string[];
  @ApiProperty({ enum: ['query'], isArray: true }) response_modes_supported!: string[];

  @ApiProperty({ enum: GRANT_TYPES_SUPPORTED, isArray: true })
  grant_types_supported!: string[];

  @ApiProperty({ enum: ['public'], isArray: true }) subject_types_supported!: string[];

  @ApiProperty({
    enum: ID_TOKEN_ALGS,
    isArray: true,
    description: 'RS256 first, the default; per client: id_token_signed_response_alg',
  })
  id_token_signing_alg_values_supported!: string[];

  @ApiProperty({ enum: TOKEN_AUTH_METHODS, isArray: true })
  token_endpoint_auth_methods_supported!: string[];

  @ApiProperty({
    enum: AUTH_SIGNING_ALGS,
    isArray: true,
    description: 'The algorithms of private_key_jwt client assertions (RFC 8414)',
  })
  token_endpoint_auth_signing_alg_values_supported!: string[];

  @ApiProperty({ format: 'uri', example: 'https://id.example.com/api/oauth2/revoke' })
  revocation_endpoint!: string;

  @ApiProperty({ enum: REVOCATION_AUTH_METHODS, isArray: true })
  revocation_endpoint_auth_methods_supported!: string[];

  @ApiProperty({ enum: AUTH_SIGNING_ALGS, isArray: true })
  revocation_endpoint_auth_signing_alg_values_supported!: string[];

  @ApiProperty({ format: 'uri', example: 'https://id.example.com/api/oauth2/introspect' })
  introspection_endpoint!: string;

  @ApiProperty({ enum: INTROSPECTION_AUTH_METHODS, isArray: true })
  introspection_endpoint_auth_methods_supported!: string[];

  @ApiProperty({ enum: AUTH_SIGNING_ALGS, isArray: true })
  introspection_endpoint_auth_signing_alg_values_supported!: string[];

  @ApiProperty({ enum: ['S256'], isArray: true }) code_challenge_methods_supported!: string[];
  @ApiProperty({ enum: CLAIMS_SUPPORTED, isArray: true }) claims_supported!: string[];
  @ApiProperty({ enum: ['none', ...INTERACTIVE_PROMPTS], isArray: true })
  prompt_values_supported!: string[];

  @ApiProperty({
    enum: [ACR_VALUE],
    isArray: true,
    description: 'The one acr we state (OIDC Core 2)',
  })
  acr_values_supported!: string[];

  @ApiProperty({ description: 'Always true: redirects carry `iss` (RFC 9207)' })
  authorization_response_iss_parameter_supported!: boolean;

  @ApiProperty({ description: 'Always false: request objects are not supported' })
  request_parameter_supported!: boolean;

  @ApiProperty({
    description:
      'Always false (its default would be true): request objects are not fetched from a client’s URL (OIDC Core 6.2); the request_uri of pushed authorization requests is announced by pushed_authorization_request_endpoint',
  })
  request_uri_parameter_supported!: boolean;

  @ApiProperty({ description: 'Always true: the claims parameter (OIDC Core 5.5) is read' })
  claims_parameter_supported!: boolean;

  @ApiProperty({
    enum: SUPPORTED_LOCALES,
    isArray: true,
    description: 'The languages of the pages, for ui_locales (OIDC Discovery 1.0 section 3)',
  })
  ui_locales_supported!: string[];

  @ApiProperty({
    format: 'uri',
    example: 'https://id.example.com/oauth2/par',
    description: 'RFC 9126 section 5',
  })
  pushed_authorization_request_endpoint!: string;

  @ApiProperty({
    description: 'RFC 8628 section 4: the device authorization endpoint',
  })
  device_authorization_endpoint!: string;

  @ApiProperty({
    description:
      'REQUIRE_PUSHED_AUTHORIZATION_REQUESTS: every client must push its authorization requests (RFC 9126 section 5)',
  })
  require_pushed_authorization_requests!: boolean;

  @ApiProperty({
    enum: DPOP_SIGNING_ALGS,
    isArray: true,
    description: 'The algorithms of DPoP proofs (RFC 9449 section 5.1)',
  })
  dpop_signing_alg_values_supported!: string[];
}
