import { Controller, Header, HttpCode, Post, Req, UseFilters } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Public } from '../../../common/http/public.decorator';
import { ALIAS_ISSUER_PATH } from '../../signing-keys/issuers';
import { CLIENT_AUTH_PARAMETERS } from '../client-auth/client-credentials';
import { ALIAS } from '../discovery/oidc-aliases.controller';
import { OAuthExceptionFilter } from '../protocol/oauth-exception.filter';
import { readForm } from '../protocol/params';
import { DeviceAuthorizationDocs } from './device-authorization.openapi';
import {
  DEVICE_AUTHORIZATION_PARAMETERS,
  DeviceAuthorizationService,
  type DeviceAuthorizationResponse,
} from './device-authorization.service';

/**
 * The paths of the device authorization endpoint and its alias issuer's: a client's API whose
 * form is read like the token endpoint's (app.setup.ts), answering JSON, never pages.
 */
export const DEVICE_AUTHORIZATION_PATHS = [
  '/oauth2/device_authorization',
  '/api/oidc/device_authorization',
];

const FORM = [...CLIENT_AUTH_PARAMETERS, ...DEVICE_AUTHORIZATION_PARAMETERS] as const;

/** POST /oauth2/device_authorization (docs/oauth.md, "Device authorization grant"; RFC 8628). */
@ApiTags('OAuth 2.0')
@Public()
@Controller()
@UseFilters(OAuthExceptionFilter)
export class DeviceAuthorizationController {
  constructor(private readonly service: DeviceAuthorizationService) {}

  @Post('oauth2/device_authorization')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @DeviceAuthorizationDocs()
  authorize(@Req() req: Request): Promise<DeviceAuthorizationResponse> {
    return this.service.authorize(readForm(req, FORM), req.headers.authorization);
  }

  /** The alias issuer's (docs/oidc.md, "Two issuers"): its id_tokens name that issuer. */
  @Post('api/oidc/device_authorization')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @DeviceAuthorizationDocs()
  @ApiOperation({ summary: `${ALIAS}POST /oauth2/device_authorization` })
  authorizeAlias(@Req() req: Request): Promise<DeviceAuthorizationResponse> {
    const form = readForm(req, FORM);
    return this.service.authorize(form, req.headers.authorization, ALIAS_ISSUER_PATH);
  }
}
