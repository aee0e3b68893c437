import {
  Controller,
  Get,
  Header,
  HttpCode,
  Inject,
  NotFoundException,
  Param,
  Post,
  Req,
  Res,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { Throttle } from '@nestjs/throttler';
import { ApiExcludeEndpoint, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Public } from '../../../common/http/public.decorator';
import { RequestId } from '../../../common/http/request-id.decorator';
import { AppConfig } from '../../../config/app-config';
import { PageExceptionFilter } from '../../oauth/interaction/page-exception.filter';
import type { PageLanguage } from '../../../common/i18n/page-language';
import { PageLang } from '../../../common/i18n/page-lang.decorator';
import { formOf } from '../../oauth/protocol/params';
import { sendPage, type PageResult } from '../../oauth/protocol/page-result';
import { browserContext, type BrowserContext } from '../../sessions/cookies';
import {
  AccountLogoutDocs,
  ChangePasswordDocs,
  ConfirmEmailDocs,
  SendEmailCodeDocs,
  ShowConfirmEmailDocs,
  RevokeApplicationDocs,
  ShowAccountDocs,
  ShowAccountLoginDocs,
  SubmitAccountLoginDocs,
  StartAccountPasskeyLoginDocs,
  SubmitAccountPasskeyLoginDocs,
  UpdateProfileDocs,
} from './account-page.openapi';
import { AccountAddressesService } from './account-addresses.service';
import { AccountApplicationsService } from './account-applications.service';
import { AccountPasswordService } from './account-password.service';
import { AccountProfileService } from './account-profile.service';
import { AccountSignInService } from './account-sign-in.service';
import { AccountViewService } from './account-view.service';
import { AccountPasskeyOptionsGuard } from './account-passkey-options.guard';
import { RateLimitGuard } from '../../rate-limit/rate-limit.guard';
import { QUOTA_WINDOW_MS } from '../../rate-limit/throttlers';
import { SIGN_IN_STARTS_PER_ADDRESS } from '../../console/passkeys/passkey-sign-in.service';
import type { PasskeyCeremonyStart } from '../../console/passkeys/passkey-view';

/**
 * The page's browser script, beside this file as plain JS so the tests (run from src/) serve it
 * as it is; `npm run build` copies the folder into dist/.
 */
const ASSETS_DIR = join(__dirname, 'assets');
const ASSETS = new Set(readdirSync(ASSETS_DIR).filter((name) => /^[a-z-]+\.js$/.test(name)));

/**
 * /account: the end user's account page and its sign-in, on the OAuth pages' browser session.
 * HTML pages and form posts answered with the OAuth pages' headers (sendPage: no-store, no
 * framing, no referrer, a CSP without inline script); failures are HTML pages too.
 */
@ApiTags('Account page')
@Public()
@Controller()
@UseFilters(PageExceptionFilter)
export class AccountPageController {
  private readonly secure: boolean;

  constructor(
    @Inject(AppConfig) config: AppConfig,
    private readonly view: AccountViewService,
    private readonly signIn: AccountSignInService,
    private readonly profile: AccountProfileService,
    private readonly addresses: AccountAddressesService,
    private readonly password: AccountPasswordService,
    private readonly applications: AccountApplicationsService,
  ) {
    this.secure = config.servesHttps;
  }

  @Get('account')
  @ShowAccountDocs()
  async show(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Res() res: Response,
  ): Promise<void> {
    this.send(res, await this.view.show(lang, this.browser(req), req.query.done));
  }

  @Get('account/login')
  @ShowAccountLoginDocs()
  async showLogin(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Res() res: Response,
  ): Promise<void> {
    this.send(res, await this.signIn.showLogin(lang, this.browser(req)));
  }

  @Post('account/login')
  @SubmitAccountLoginDocs()
  async submitLogin(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Res() res: Response,
  ): Promise<void> {
    this.send(res, await this.signIn.submitLogin(formOf(req), lang, this.browser(req)));
  }

  @Post('account/login/passkey/options')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @StartAccountPasskeyLoginDocs()
  // The page's own checks first (Origin, CSRF token): only starts that pass count.
  @UseGuards(AccountPasskeyOptionsGuard, RateLimitGuard)
  @Throttle({ 'passkey-sign-in': { limit: SIGN_IN_STARTS_PER_ADDRESS, ttl: QUOTA_WINDOW_MS } })
  startPasskeyLogin(): Promise<PasskeyCeremonyStart> {
    return this.signIn.passkeyOptions();
  }

  @Post('account/login/passkey')
  @SubmitAccountPasskeyLoginDocs()
  async submitPasskeyLogin(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @RequestId() requestId: string,
    @Res() res: Response,
  ): Promise<void> {
    const form = formOf(req);
    const browser = this.browser(req);
    this.send(res, await this.signIn.submitPasskeyLogin(form, lang, browser, requestId));
  }

  @Post('account/logout')
  @AccountLogoutDocs()
  async logout(@Req() req: Request, @Res() res: Response): Promise<void> {
    this.send(res, await this.signIn.logout(formOf(req), this.browser(req)));
  }

  @Post('account/profile')
  @UpdateProfileDocs()
  async updateProfile(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Res() res: Response,
  ): Promise<void> {
    this.send(res, await this.profile.updateProfile(formOf(req), lang, this.browser(req)));
  }

  @Post('account/emails/code')
  @SendEmailCodeDocs()
  async sendEmailCode(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Res() res: Response,
  ): Promise<void> {
    this.send(res, await this.addresses.sendEmailCode(formOf(req), lang, this.browser(req)));
  }

  @Get('account/emails/confirm')
  @ShowConfirmEmailDocs()
  async showConfirmEmail(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Res() res: Response,
  ): Promise<void> {
    const { id, code } = req.query;
    this.send(res, await this.addresses.showConfirmEmail(lang, this.browser(req), id, code));
  }

  @Post('account/emails/confirm')
  @ConfirmEmailDocs()
  async confirmEmail(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Res() res: Response,
  ): Promise<void> {
    this.send(res, await this.addresses.confirmEmail(formOf(req), lang, this.browser(req)));
  }

  @Post('account/password')
  @ChangePasswordDocs()
  async changePassword(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Res() res: Response,
  ): Promise<void> {
    this.send(res, await this.password.changePassword(formOf(req), lang, this.browser(req)));
  }

  @Post('account/applications/:applicationId/revoke')
  @RevokeApplicationDocs()
  async revoke(
    @Param('applicationId') applicationId: string,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    this.send(res, await this.applications.revoke(applicationId, formOf(req), this.browser(req)));
  }

  @Get('account/assets/:file')
  @ApiExcludeEndpoint()
  asset(@Param('file') file: string, @Res() res: Response): void {
    if (!ASSETS.has(file)) throw new NotFoundException();
    // Revalidated on every load (ETag), so a new version of the script applies at once.
    res.sendFile(file, { root: ASSETS_DIR, headers: { 'Cache-Control': 'no-cache' } });
  }

  private browser(req: Request): BrowserContext {
    return browserContext(req, this.secure);
  }

  private send(res: Response, result: PageResult): void {
    sendPage(res, result, this.secure);
  }
}
