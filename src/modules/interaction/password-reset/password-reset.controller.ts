import { Controller, Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../../common/http/public.decorator';
import { formOf } from '../../../common/http/params';
import { Browser, replyWithPage } from '../../pages/page-requests';
import { PageExceptionFilter } from '../../pages/page-exception.filter';
import type { PageLanguage } from '../../../common/i18n/page-language';
import { PageLang } from '../../../common/i18n/page-lang.decorator';

import type { BrowserContext } from '../../sessions/cookies';
import { ForgotPasswordService } from './forgot-password.service';
import {
  ShowForgotPasswordDocs,
  ShowResetPasswordDocs,
  SubmitForgotPasswordDocs,
  SubmitResetPasswordDocs,
} from './password-reset.openapi';
import { ResetPasswordService } from './reset-password.service';

/**
 * The password reset pages (docs/accounts.md, "Password reset"): HTML pages and redirects with
 * the headers and error pages of the login page.
 */
@ApiTags('OAuth 2.0 browser endpoints')
@Public()
@Controller('oauth2')
@UseFilters(PageExceptionFilter)
export class PasswordResetController {
  constructor(
    private readonly forgot: ForgotPasswordService,
    private readonly reset: ResetPasswordService,
  ) {}

  @Get('forgot-password')
  @ShowForgotPasswordDocs()
  async showForgotPassword(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.forgot.show(req.query.request, lang, browser));
  }

  @Post('forgot-password')
  @SubmitForgotPasswordDocs()
  async submitForgotPassword(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.forgot.submit(formOf(req), lang, browser));
  }

  @Get('reset-password')
  @ShowResetPasswordDocs()
  async showResetPassword(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.reset.show(req.query, lang, browser));
  }

  @Post('reset-password')
  @SubmitResetPasswordDocs()
  async submitResetPassword(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.reset.submit(formOf(req), lang, browser, browser.resetCookie));
  }
}
