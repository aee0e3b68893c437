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
import { ApiTags } from '@nestjs/swagger';
import { Metrics } from '../../common/metrics/metrics';
import type { Request, Response } from 'express';
import { Public } from '../../common/http/public.decorator';
import { OAuthExceptionFilter } from './protocol/oauth-exception.filter';
import { formAccessToken } from './protocol/params';
import { TokenResponse } from './token/token-issuer';
import { TokenEndpointDocs } from './token/token.openapi';
import { answerTokenRequest } from './token/token-endpoint';
import { DpopService } from './dpop/dpop.service';
import { TokenService } from './token/token.service';
import { UserEmailsDocs, UserinfoDocs } from './userinfo/userinfo.openapi';
import {
  OidcUserInfo,
  UserEmailEntry,
  UserInfo,
  UserinfoService,
} from './userinfo/userinfo.service';

/** Token, user info and user emails endpoints (docs/contract/oauth.md#endpoints). */
@ApiTags('OAuth 2.0')
@Public()
@Controller('api/oauth2')
@UseFilters(OAuthExceptionFilter)
export class OAuthApiController {
  constructor(
    readonly tokens: TokenService,
    private readonly users: UserinfoService,
    @Inject(Metrics) readonly metrics: Metrics,
    readonly dpop: DpopService,
  ) {}

  @Post('token')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @TokenEndpointDocs()
  token(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<TokenResponse> {
    return answerTokenRequest(this, req, res);
  }

  @Get('userinfo')
  @Header('Cache-Control', 'no-store')
  @UserinfoDocs()
  userinfo(@Req() req: Request): Promise<UserInfo | OidcUserInfo> {
    return this.users.userinfo(req);
  }

  /**
   * OIDC Core 5.3.1: userinfo also answers POST, with the token in the header or in the form
   * (RFC 6750 section 2.2).
   */
  @Post('userinfo')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @UserinfoDocs({ formToken: true })
  postUserinfo(@Req() req: Request): Promise<UserInfo | OidcUserInfo> {
    return this.users.userinfo(req, formAccessToken(req));
  }

  @Get('user/emails')
  @Header('Cache-Control', 'no-store')
  @UserEmailsDocs()
  emails(@Req() req: Request): Promise<UserEmailEntry[]> {
    return this.users.emails(req);
  }
}
