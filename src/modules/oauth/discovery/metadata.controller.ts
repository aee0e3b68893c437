import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AppConfig } from '../../../config/app-config';
import { Public } from '../../../common/http/public.decorator';
import { ALIAS_ISSUER_PATH } from '../../signing-keys/issuers';
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
    return providerMetadata(
      this.config.publicBaseUrl,
      null,
      this.config.requirePushedAuthorizationRequests,
    );
  }

  @Get('oauth-authorization-server')
  @Header('Cache-Control', CACHE)
  @ApiOperation({ summary: 'Authorization server metadata (RFC 8414), the same document' })
  @ApiOkResponse({ type: ProviderMetadata })
  metadata(): ProviderMetadata {
    return providerMetadata(
      this.config.publicBaseUrl,
      null,
      this.config.requirePushedAuthorizationRequests,
    );
  }

  // RFC 8414 section 3.1: the metadata of an issuer with a path is at the well-known URI with the
  // path appended.
  @Get(`oauth-authorization-server${ALIAS_ISSUER_PATH}`)
  @Header('Cache-Control', CACHE)
  @ApiOperation({
    summary: `Authorization server metadata (RFC 8414) of the issuer ${ALIAS_ISSUER_PATH}`,
  })
  @ApiOkResponse({ type: ProviderMetadata })
  aliasMetadata(): ProviderMetadata {
    return providerMetadata(
      this.config.publicBaseUrl,
      ALIAS_ISSUER_PATH,
      this.config.requirePushedAuthorizationRequests,
    );
  }
}

/**
 * Discovery of the issuer `${base}/api/oidc` (OIDC Discovery 1.0 section 4: the issuer followed
 * by /.well-known/openid-configuration), the issuer integrations of the original service
 * configure (docs/oidc.md, "Two issuers").
 */
@ApiTags('OpenID Connect aliases')
@Public()
@Controller(`${ALIAS_ISSUER_PATH.slice(1)}/.well-known`)
export class AliasMetadataController {
  constructor(@Inject(AppConfig) private readonly config: AppConfig) {}

  @Get('openid-configuration')
  @Header('Cache-Control', CACHE)
  @ApiOperation({ summary: `OpenID Provider Metadata of the issuer ${ALIAS_ISSUER_PATH}` })
  @ApiOkResponse({ type: ProviderMetadata })
  aliasOpenidConfiguration(): ProviderMetadata {
    return providerMetadata(
      this.config.publicBaseUrl,
      ALIAS_ISSUER_PATH,
      this.config.requirePushedAuthorizationRequests,
    );
  }
}
