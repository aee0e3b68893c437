import { Controller, Get, Header, HttpCode, Post, Req, UseFilters } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Public } from '../keys/auth.decorators';
import { invalidRequest } from './oauth-error';
import { OAuthExceptionFilter } from './oauth-exception.filter';
import { param, type Params } from './steps/params';
import { TokenResponse } from './token-issuer';
import { TokenEndpointDocs } from './token.openapi';
import { TokenService } from './token.service';
import { UserEmailsDocs, UserinfoDocs } from './userinfo.openapi';
import { OidcUserInfo, UserEmailEntry, UserInfo, UserinfoService } from './userinfo.service';

/** Token, user info and user emails endpoints (spec section 4.2). */
@ApiTags('OAuth 2.0')
@Public()
@Controller('api/oauth2')
@UseFilters(OAuthExceptionFilter)
export class OAuthApiController {
  constructor(
    private readonly tokens: TokenService,
    private readonly users: UserinfoService,
  ) {}

  @Post('token')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @Header('Pragma', 'no-cache')
  @TokenEndpointDocs()
  token(@Req() req: Request): Promise<TokenResponse> {
    return this.tokens.token(formBody(req), req.headers.authorization);
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

/**
 * The `access_token` form parameter of a userinfo POST (RFC 6750 section 2.2: only in a body of
 * type application/x-www-form-urlencoded; the body reader refuses other types on these paths),
 * or undefined. Sent twice, it is refused like any repeated parameter (`invalid_request`).
 */
export function formAccessToken(req: Request): string | undefined {
  if (!req.is('application/x-www-form-urlencoded')) return undefined;
  return param((req.body ?? {}) as Params, 'access_token');
}

/** RFC 6749 section 4.1.3 (and RFC 7009 section 2.1, RFC 7662 section 2.1): form-encoded only. */
export function formBody(req: Request): Params {
  if (!req.is('application/x-www-form-urlencoded')) {
    throw invalidRequest('Content-Type must be application/x-www-form-urlencoded');
  }
  return (req.body ?? {}) as Params;
}
