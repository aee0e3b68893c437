import { ApiProperty } from '@nestjs/swagger';
import { OAUTH_SCOPES } from './scopes';

/** RFC 8414 section 2: the authorization server metadata this service publishes. */
export class AuthorizationServerMetadata {
  @ApiProperty({ format: 'uri', description: 'PUBLIC_BASE_URL; also the `iss` of RFC 9207' })
  issuer!: string;

  @ApiProperty({ format: 'uri', example: 'https://id.example.com/oauth2/authorize' })
  authorization_endpoint!: string;

  @ApiProperty({ format: 'uri', example: 'https://id.example.com/api/oauth2/token' })
  token_endpoint!: string;

  @ApiProperty({ format: 'uri', example: 'https://id.example.com/api/oauth2/userinfo' })
  userinfo_endpoint!: string;

  @ApiProperty({ enum: OAUTH_SCOPES, isArray: true }) scopes_supported!: string[];
  @ApiProperty({ enum: ['code'], isArray: true }) response_types_supported!: string[];
  @ApiProperty({ enum: ['query'], isArray: true }) response_modes_supported!: string[];

  @ApiProperty({ enum: ['authorization_code', 'refresh_token'], isArray: true })
  grant_types_supported!: string[];

  @ApiProperty({ enum: ['client_secret_basic', 'client_secret_post', 'none'], isArray: true })
  token_endpoint_auth_methods_supported!: string[];

  @ApiProperty({ enum: ['S256'], isArray: true }) code_challenge_methods_supported!: string[];

  @ApiProperty({ description: 'Always true: redirects carry `iss` (RFC 9207)' })
  authorization_response_iss_parameter_supported!: boolean;
}
