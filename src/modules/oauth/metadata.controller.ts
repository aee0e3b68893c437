import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AppConfig } from '../../config/app-config';
import { Public } from '../keys/auth.decorators';
import { providerMetadata } from './discovery';
import { ProviderMetadata } from './metadata.openapi';

// The document changes only with a deployment; a short public cache spares clients a fetch per
// login without delaying a change for long.
const CACHE = 'public, max-age=300';

/** Discovery: one document at both well-known addresses (discovery.ts). */
@ApiTags('OAuth 2.0')
@Public()
@Controller('.well-known')
export class MetadataController {
  constructor(@Inject(AppConfig) private readonly config: AppConfig) {}

  @Get('openid-configuration')
  @Header('Cache-Control', CACHE)
  @ApiOperation({ summary: 'OpenID Provider Metadata (OpenID Connect Discovery 1.0)' })
  @ApiOkResponse({ type: ProviderMetadata })
  openidConfiguration(): ProviderMetadata {
    return providerMetadata(this.config.publicBaseUrl);
  }

  @Get('oauth-authorization-server')
  @Header('Cache-Control', CACHE)
  @ApiOperation({ summary: 'Authorization server metadata (RFC 8414), the same document' })
  @ApiOkResponse({ type: ProviderMetadata })
  metadata(): ProviderMetadata {
    return providerMetadata(this.config.publicBaseUrl);
  }
}
