import {
  Controller,
  Get,
  Header,
  HttpCode,
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
import { Browser, replyWithPage } from '../../pages/page-requests';
import { PageExceptionFilter } from '../../pages/page-exception.filter';
import type { PageLanguage } from '../../../common/i18n/page-language';
import { PageLang } from '../../../common/i18n/page-lang.decorator';
import { formOf } from '../../../common/http/params';

import type { BrowserContext } from '../../sessions/cookies';
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
import { SIGN_IN_STARTS_PER_ADDRESS } from '../../passkeys/sign-in/passkey-sign-in.service';
import type { PasskeyCeremonyStart } from '../../passkeys/passkey-view';

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
  constructor(
    private readonly view: AccountViewService,
    private readonly signIn: AccountSignInService,
    private readonly profile: AccountProfileService,
    private readonly addresses: AccountAddressesService,
    private readonly password: AccountPasswordService,
    private readonly applications: AccountApplicationsService,
  ) {}

  @Get('account')
  @ShowAccountDocs()
  async show(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.view.show(lang, browser, req.query.done));
  }

  @Get('account/login')
  @ShowAccountLoginDocs()
  async showLogin(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.signIn.showLogin(lang, browser));
  }

  @Post('account/login')
  @SubmitAccountLoginDocs()
  async submitLogin(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.signIn.submitLogin(formOf(req), lang, browser));
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
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    const form = formOf(req);
    replyWithPage(res, await this.signIn.submitPasskeyLogin(form, lang, browser, requestId));
  }

  @Post('account/logout')
  @AccountLogoutDocs()
  async logout(
    @Req() req: Request,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.signIn.logout(formOf(req), browser));
  }

  @Post('account/profile')
  @UpdateProfileDocs()
  async updateProfile(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.profile.updateProfile(formOf(req), lang, browser));
  }

  @Post('account/emails/code')
  @SendEmailCodeDocs()
  async sendEmailCode(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.addresses.sendEmailCode(formOf(req), lang, browser));
  }

  @Get('account/emails/confirm')
  @ShowConfirmEmailDocs()
  async showConfirmEmail(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    const { id, code } = req.query;
    replyWithPage(res, await this.addresses.showConfirmEmail(lang, browser, id, code));
  }

  @Post('account/emails/confirm')
  @ConfirmEmailDocs()
  async confirmEmail(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.addresses.confirmEmail(formOf(req), lang, browser));
  }

  @Post('account/password')
  @ChangePasswordDocs()
  async changePassword(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.password.changePassword(formOf(req), lang, browser));
  }

  @Post('account/applications/:applicationId/revoke')
  @RevokeApplicationDocs()
  async revoke(
    @Param('applicationId') applicationId: string,
    @Req() req: Request,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.applications.revoke(applicationId, formOf(req), browser));
  }

  @Get('account/assets/:file')
  @ApiExcludeEndpoint()
  asset(@Param('file') file: string, @Res() res: Response): void {
    if (!ASSETS.has(file)) throw new NotFoundException();
    // Revalidated on every load (ETag), so a new version of the script applies at once.
    res.sendFile(file, { root: ASSETS_DIR, headers: { 'Cache-Control': 'no-cache' } });
  }
}
