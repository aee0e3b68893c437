import { Controller, Get, Header, HttpCode, Inject, Post, Req, UseFilters } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Metrics } from '../../common/metrics/metrics';
import type { Request } from 'express';
import { Public } from '../../common/http/public.decorator';
import { OAuthExceptionFilter } from './protocol/oauth-exception.filter';
import { formAccessToken } from './protocol/params';
import { TokenResponse } from './token/token-issuer';
import { TokenEndpointDocs } from './token/token.openapi';
import { countTokenRequest } from './token/token-metrics';
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
    private readonly tokens: TokenService,
    private readonly users: UserinfoService,
    @Inject(Metrics) private readonly metrics: Metrics,
  ) {}

  @Post('token')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @TokenEndpointDocs()
  token(@Req() req: Request): Promise<TokenResponse> {
    return countTokenRequest(this.metrics, req, (params) =>
      this.tokens.token(params, req.headers.authorization),
    );
  }

  @Get('userinfo')
  @Header('Cache-Control', 'no-store')
  @UserinfoDocs()
  userinfo(@Req() req: Request): Promise<UserInfo | OidcUserInfo> {
    return this.users.userinfo(req.headers.authorization);
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
    return this.users.userinfo(req.headers.authorization, formAccessToken(req));
  }

  @Get('user/emails')
  @Header('Cache-Control', 'no-store')
  @UserEmailsDocs()
  emails(@Req() req: Request): Promise<UserEmailEntry[]> {
    return this.users.emails(req.headers.authorization);
  }
}
