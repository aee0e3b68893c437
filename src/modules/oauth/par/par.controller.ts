import { Controller, Header, HttpCode, Post, Req, UseFilters } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { Params } from '../../../common/http/params';
import { Public } from '../../../common/http/public.decorator';
import { CLIENT_AUTH_PARAMETERS } from '../client-auth/client-credentials';
import { OAuthExceptionFilter } from '../protocol/oauth-exception.filter';
import { readForm } from '../protocol/params';
import { PushedAuthorizationDocs } from './par.openapi';
import { PushedAuthorizationService, type PushedAuthorizationResponse } from './par.service';

/**
 * The paths of the pushed authorization request endpoint: its form is read like /authorize's
 * (app.setup.ts), its answers are JSON, never pages.
 */
export const PAR_PATHS = ['/oauth2/par', '/api/oidc/par'];

/**
 * One pushed authorization request (RFC 9126 section 2), from any route: the form's client
 * credentials, the whole form as the request, the Authorization header.
 */
export function pushFrom(
  service: PushedAuthorizationService,
  req: Request,
): Promise<PushedAuthorizationResponse> {
  const credentials = readForm(req, CLIENT_AUTH_PARAMETERS);
  return service.push(credentials, req.body as Params, req.headers.authorization);
}

/** POST /oauth2/par (docs/oauth.md, "Pushed authorization requests"). */
@ApiTags('OAuth 2.0')
@Public()
@Controller('oauth2')
@UseFilters(OAuthExceptionFilter)
export class PushedAuthorizationController {
  constructor(private readonly service: PushedAuthorizationService) {}

  @Post('par')
  @HttpCode(201)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @PushedAuthorizationDocs()
  push(@Req() req: Request): Promise<PushedAuthorizationResponse> {
    return pushFrom(this.service, req);
  }
}
