import {
  Controller,
  Get,
  Header,
  HttpCode,
  Inject,
  Post,
  Req,
  Res,
  UseFilters,
} from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Metrics } from '../../../common/metrics/metrics';
import type { Request, Response } from 'express';
import { Public } from '../../../common/http/public.decorator';
import { formAccessToken } from '../protocol/params';
import { OAuthExceptionFilter } from '../protocol/oauth-exception.filter';
import { TokenResponse } from '../token/token-issuer';
import { TokenEndpointDocs } from '../token/token.openapi';
import { answerTokenRequest } from '../token/token-endpoint';
import { DpopService } from '../dpop/dpop.service';
import { TokenService } from '../token/token.service';
import { UserinfoDocs } from '../userinfo/userinfo.openapi';
import { UserinfoService, type OidcUserInfo, type UserInfo } from '../userinfo/userinfo.service';
import { pushFrom } from '../par/par.controller';
import { PushedAuthorizationDocs } from '../par/par.openapi';
import { PushedAuthorizationService, type PushedAuthorizationResponse } from '../par/par.service';

/** The aliases whose bodies are read like /api/oauth2's (app.setup.ts). */
export const OIDC_API_ALIASES = ['/api/oidc/token', '/api/oidc/userinfo'];

/** The authorization endpoint and its alias: a POST form is read like their query (app.setup.ts). */
export const AUTHORIZE_PATHS = ['/oauth2/authorize', '/api/oidc/auth'];

export const ALIAS =
  'Alias of the original service (docs/oidc.md, "Aliases"): the same handler as ';

/**
 * POST /api/oidc/token and GET|POST /api/oidc/userinfo: the /api/oauth2 endpoints; POST
 * /api/oidc/par: the alias issuer's pushed authorization request endpoint (/oauth2/par).
 */
@ApiTags('OpenID Connect aliases')
@Public()
@Controller('api/oidc')
@UseFilters(OAuthExceptionFilter)
export class OidcApiAliasController {
  constructor(
    readonly tokens: TokenService,
    private readonly users: UserinfoService,
    @Inject(Metrics) readonly metrics: Metrics,
    private readonly pushed: PushedAuthorizationService,
    readonly dpop: DpopService,
  ) {}

  @Post('token')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @TokenEndpointDocs()
  @ApiOperation({ summary: `${ALIAS}POST /api/oauth2/token` })
  tokenAlias(
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<TokenResponse> {
    return answerTokenRequest(this, req, res);
  }

  @Get('userinfo')
  @Header('Cache-Control', 'no-store')
  @UserinfoDocs()
  @ApiOperation({ summary: `${ALIAS}GET /api/oauth2/userinfo` })
  userinfoAlias(@Req() req: Request): Promise<UserInfo | OidcUserInfo> {
    return this.users.userinfo(req);
  }

  @Post('userinfo')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @UserinfoDocs({ formToken: true })
  @ApiOperation({ summary: `${ALIAS}POST /api/oauth2/userinfo` })
  postUserinfoAlias(@Req() req: Request): Promise<UserInfo | OidcUserInfo> {
    return this.users.userinfo(req, formAccessToken(req));
  }

  // The request_uri is taken by either authorization endpoint: the issuer is the one the browser
  // is sent to (/oauth2/authorize or /api/oidc/auth), as for a request sent there directly.
  @Post('par')
  @HttpCode(201)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @PushedAuthorizationDocs()
  @ApiOperation({ summary: `${ALIAS}POST /oauth2/par` })
  pushAlias(@Req() req: Request): Promise<PushedAuthorizationResponse> {
    return pushFrom(this.pushed, req);
  }
}
