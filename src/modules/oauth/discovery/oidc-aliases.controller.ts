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
import { ALIAS_ISSUER_PATH } from '../../signing-keys/issuers';
import { AuthorizeService } from '../authorize/authorize.service';
import { formAccessToken, formOf } from '../protocol/params';
import { OAuthExceptionFilter } from '../protocol/oauth-exception.filter';
import { Browser, replyWithPage } from '../../pages/page-requests';
import { PageExceptionFilter } from '../../pages/page-exception.filter';
import type { BrowserContext } from '../../sessions/cookies';
import type { PageLanguage } from '../../../common/i18n/page-language';
import { PageLang } from '../../../common/i18n/page-lang.decorator';
import { LogoutService } from '../interaction/logout.service';
import { AuthorizeDocs, AuthorizePostDocs, ShowLogoutDocs } from '../interaction/pages.openapi';
import { TokenResponse } from '../token/token-issuer';
import { TokenEndpointDocs } from '../token/token.openapi';
import { countTokenRequest } from '../token/token-metrics';
import { TokenService } from '../token/token.service';
import { UserinfoDocs } from '../userinfo/userinfo.openapi';
import { UserinfoService, type OidcUserInfo, type UserInfo } from '../userinfo/userinfo.service';

/** The aliases whose bodies are read like /api/oauth2's (app.setup.ts). */
export const OIDC_API_ALIASES = ['/api/oidc/token', '/api/oidc/userinfo'];

/** The authorization endpoint and its alias: a POST form is read like their query (app.setup.ts). */
export const AUTHORIZE_PATHS = ['/oauth2/authorize', '/api/oidc/auth'];

const ALIAS = 'Alias of the original service (docs/oidc.md, "Aliases"): the same handler as ';

/**
 * The original service's browser pages: GET /api/oidc/auth, its authorization endpoint, served
 * by the same handler as /oauth2/authorize (its redirects to /oauth2/login and /oauth2/consent
 * are absolute paths), and GET /api/oidc/logout, its end-session path, answered by the handler
 * of GET /oauth2/logout (docs/oidc.md, "Logout (RP-initiated)"; its form posts to /oauth2/logout).
 */
@ApiTags('OpenID Connect aliases')
@Public()
@Controller('api/oidc')
@UseFilters(PageExceptionFilter)
export class OidcPageAliasController {
  constructor(
    private readonly authorizeService: AuthorizeService,
    private readonly logoutService: LogoutService,
  ) {}

  @Get('auth')
  @AuthorizeDocs()
  @ApiOperation({ summary: `${ALIAS}GET /oauth2/authorize` })
  async authorizeAlias(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    // The alias issuer's authorization endpoint: the grant answers as that issuer (docs/oidc.md).
    const result = await this.authorizeService.start(
      req.query,
      lang,
      browser,
      302,
      ALIAS_ISSUER_PATH,
    );
    replyWithPage(res, result);
  }

  @Post('auth')
  @AuthorizePostDocs()
  @ApiOperation({ summary: `${ALIAS}POST /oauth2/authorize` })
  async authorizePostAlias(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    const result = await this.authorizeService.start(
      formOf(req),
      lang,
      browser,
      303,
      ALIAS_ISSUER_PATH,
    );
    replyWithPage(res, result);
  }

  @Get('logout')
  @ShowLogoutDocs()
  @ApiOperation({ summary: `${ALIAS}GET /oauth2/logout` })
  async showLogoutAlias(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    const result = await this.logoutService.show(req.query, lang, browser);
    replyWithPage(res, result);
  }
}

/** POST /api/oidc/token and GET|POST /api/oidc/userinfo: the /api/oauth2 endpoints. */
@ApiTags('OpenID Connect aliases')
@Public()
@Controller('api/oidc')
@UseFilters(OAuthExceptionFilter)
export class OidcApiAliasController {
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
  @ApiOperation({ summary: `${ALIAS}POST /api/oauth2/token` })
  tokenAlias(@Req() req: Request): Promise<TokenResponse> {
    return countTokenRequest(this.metrics, req, (params) =>
      this.tokens.token(params, req.headers.authorization),
    );
  }

  @Get('userinfo')
  @Header('Cache-Control', 'no-store')
  @UserinfoDocs()
  @ApiOperation({ summary: `${ALIAS}GET /api/oauth2/userinfo` })
  userinfoAlias(@Req() req: Request): Promise<UserInfo | OidcUserInfo> {
    return this.users.userinfo(req.headers.authorization);
  }

  @Post('userinfo')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @UserinfoDocs({ formToken: true })
  @ApiOperation({ summary: `${ALIAS}POST /api/oauth2/userinfo` })
  postUserinfoAlias(@Req() req: Request): Promise<UserInfo | OidcUserInfo> {
    return this.users.userinfo(req.headers.authorization, formAccessToken(req));
  }
}
