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
  UseGuards,
} from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { AppConfig } from '../../../config/app-config';
import { Public } from '../../../common/http/public.decorator';
import { RequestId } from '../../../common/http/request-id.decorator';
import { AuthorizeService } from '../../oauth/authorize/authorize.service';
import { InteractionService } from './interaction.service';
import { LogoutService } from './logout.service';
import { SelectAccountService } from './select-account.service';
import { Browser, replyWithPage } from '../../pages/page-requests';
import { PageExceptionFilter } from '../../pages/page-exception.filter';
import { PasskeyOptionsGuard } from './passkey-options.guard';
import { sendPasskeyScript } from '../../passkeys/sign-in/passkey-script';
import { RateLimitGuard } from '../../rate-limit/rate-limit.guard';
import { QUOTA_WINDOW_MS } from '../../rate-limit/throttlers';
import { SIGN_IN_STARTS_PER_ADDRESS } from '../../passkeys/sign-in/passkey-sign-in.service';
import type { PasskeyCeremonyStart } from '../../passkeys/passkey-view';
import {
  AuthorizeDocs,
  AuthorizePostDocs,
  ShowSelectAccountDocs,
  SubmitSelectAccountDocs,
  ShowBindUpstreamDocs,
  LogoutDocs,
  ShowConsentDocs,
  ShowLoginDocs,
  ShowLogoutDocs,
  StartPasskeyLoginDocs,
  SubmitConsentDocs,
  SubmitLoginDocs,
  SubmitPasskeyLoginDocs,
  PasskeyScriptDocs,
  SwitchLanguageDocs,
} from './pages.openapi';
import { languageCookieOptions, languageSwitch } from '../../pages/language-switch';
import { LANGUAGE_COOKIE, type PageLanguage } from '../../../common/i18n/page-language';
import { PageLang } from '../../../common/i18n/page-lang.decorator';
import type { BrowserContext } from '../../sessions/cookies';

import { formOf } from '../../../common/http/params';

/** The browser side of OAuth: /oauth2/authorize, the login and consent pages, logout. */
@ApiTags('OAuth 2.0 browser endpoints')
@Public()
@Controller('oauth2')
@UseFilters(PageExceptionFilter)
export class OAuthPagesController {
  private readonly secure: boolean;

  constructor(
    @Inject(AppConfig) config: AppConfig,
    private readonly authorizeService: AuthorizeService,
    private readonly interaction: InteractionService,
    private readonly logoutService: LogoutService,
    private readonly selectAccount: SelectAccountService,
  ) {
    this.secure = config.servesHttps;
  }

  @Get('authorize')
  @AuthorizeDocs()
  async authorize(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.authorizeService.start(req.query, lang, browser));
  }

  /** OIDC Core 3.1.2.1: the same request as a form POST; no CSRF token (it starts a request). */
  @Post('authorize')
  @AuthorizePostDocs()
  async authorizePost(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.authorizeService.start(formOf(req), lang, browser, 303));
  }

  @Get('select-account')
  @ShowSelectAccountDocs()
  async showSelectAccount(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.selectAccount.show(req.query.request, lang, browser));
  }

  @Post('select-account')
  @SubmitSelectAccountDocs()
  async submitSelectAccount(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.selectAccount.submit(formOf(req), lang, browser));
  }

  @Get('login')
  @ShowLoginDocs()
  async showLogin(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.interaction.showLogin(req.query.request, lang, browser));
  }

  @Post('login')
  @SubmitLoginDocs()
  async submitLogin(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.interaction.submitLogin(formOf(req), lang, browser));
  }

  @Post('login/passkey/options')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @StartPasskeyLoginDocs()
  // The login page's own checks first (Origin, request, CSRF token): only starts that pass count.
  @UseGuards(PasskeyOptionsGuard, RateLimitGuard)
  @Throttle({ 'passkey-sign-in': { limit: SIGN_IN_STARTS_PER_ADDRESS, ttl: QUOTA_WINDOW_MS } })
  startPasskeyLogin(): Promise<PasskeyCeremonyStart> {
    return this.interaction.passkeyOptions();
  }

  @Post('login/passkey')
  @SubmitPasskeyLoginDocs()
  async submitPasskeyLogin(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @RequestId() requestId: string,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    const form = formOf(req);
    replyWithPage(res, await this.interaction.submitPasskeyLogin(form, lang, browser, requestId));
  }

  @Get('assets/passkey-sign-in.js')
  @PasskeyScriptDocs()
  passkeyScript(@Req() req: Request, @Res() res: Response): void {
    sendPasskeyScript(res, req.query.v);
  }

  @Get('language')
  @SwitchLanguageDocs()
  switchLanguage(@Req() req: Request, @Res() res: Response): void {
    const { locale, returnTo } = languageSwitch(req.query);
    res.cookie(LANGUAGE_COOKIE, locale, languageCookieOptions(this.secure));
    replyWithPage(res, { status: 303, location: returnTo });
  }

  @Get('consent')
  @ShowConsentDocs()
  async showConsent(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.interaction.showConsent(req.query.request, lang, browser));
  }

  @Post('consent')
  @SubmitConsentDocs()
  async submitConsent(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.interaction.submitConsent(formOf(req), lang, browser));
  }

  @Get('bind-upstream')
  @ShowBindUpstreamDocs()
  async showBindUpstream(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.interaction.showBindUpstream(req.query.request, lang, browser));
  }

  @Get('logout')
  @ShowLogoutDocs()
  async showLogout(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.logoutService.show(req.query, lang, browser));
  }

  @Post('logout')
  @LogoutDocs()
  async logout(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.logoutService.submit(formOf(req), lang, browser));
  }
}
