import { Controller, Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { formOf } from '../../../common/http/params';
import { Public } from '../../../common/http/public.decorator';
import type { PageLanguage } from '../../../common/i18n/page-language';
import { PageLang } from '../../../common/i18n/page-lang.decorator';
import { AuthorizeService } from '../../oauth/authorize/authorize.service';
import { ALIAS } from '../../oauth/discovery/oidc-aliases.controller';
import { PageExceptionFilter } from '../../pages/page-exception.filter';
import { Browser, replyWithPage } from '../../pages/page-requests';
import type { BrowserContext } from '../../sessions/cookies';
import { ALIAS_ISSUER_PATH } from '../../signing-keys/issuers';
import { LogoutService } from './logout.service';
import { AuthorizeDocs, AuthorizePostDocs, ShowLogoutDocs } from './pages.openapi';

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
