import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AppConfig } from '../../config/app-config';
import { Public } from '../keys/auth.decorators';
import { AuthorizationServerMetadata } from './metadata.openapi';
import { OAUTH_SCOPES } from './scopes';

/** RFC 8414 authorization server metadata, so standard clients can discover the endpoints. */
@ApiTags('OAuth 2.0')
@Public()
@Controller('.well-known')
export class MetadataController {
  constructor(@Inject(AppConfig) private readonly config: AppConfig) {}

  @Get('oauth-authorization-server')
  @ApiOperation({ summary: 'Authorization server metadata (RFC 8414)' })
  @ApiOkResponse({ type: AuthorizationServerMetadata })
  metadata(): AuthorizationServerMetadata {
    const base = this.config.publicBaseUrl;
    return {
      issuer: base,
      authorization_endpoint: `${base}/oauth2/authorize`,
      token_endpoint: `${base}/api/oauth2/token`,
      userinfo_endpoint: `${base}/api/oauth2/userinfo`,
      scopes_supported: [...OAUTH_SCOPES],
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    };
  }
}
