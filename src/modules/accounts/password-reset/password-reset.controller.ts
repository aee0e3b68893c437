import { Controller, Get, Inject, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../../common/http/public.decorator';
import { AppConfig } from '../../../config/app-config';
import { formOf } from '../../oauth/protocol/params';
import { PageExceptionFilter } from '../../oauth/interaction/page-exception.filter';
import type { PageLanguage } from '../../../common/i18n/page-language';
import { PageLang } from '../../../common/i18n/page-lang.decorator';
import { sendPage, type PageResult } from '../../oauth/protocol/page-result';
import { browserContext, readCookie, type BrowserContext } from '../../sessions/cookies';
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
  private readonly secure: boolean;

  constructor(
    @Inject(AppConfig) config: AppConfig,
    private readonly forgot: ForgotPasswordService,
    private readonly reset: ResetPasswordService,
  ) {
    this.secure = config.servesHttps;
  }

  @Get('forgot-password')
  @ShowForgotPasswordDocs()
  async showForgotPassword(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Res() res: Response,
  ): Promise<void> {
    this.send(res, await this.forgot.show(req.query.request, lang, this.browser(req)));
  }

  @Post('forgot-password')
  @SubmitForgotPasswordDocs()
  async submitForgotPassword(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Res() res: Response,
  ): Promise<void> {
    this.send(res, await this.forgot.submit(formOf(req), lang, this.browser(req)));
  }

  @Get('reset-password')
  @ShowResetPasswordDocs()
  async showResetPassword(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Res() res: Response,
  ): Promise<void> {
    this.send(res, await this.reset.show(req.query, lang, this.browser(req)));
  }

  @Post('reset-password')
  @SubmitResetPasswordDocs()
  async submitResetPassword(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Res() res: Response,
  ): Promise<void> {
    const askedHere = readCookie(req, 'reset', this.secure);
    this.send(res, await this.reset.submit(formOf(req), lang, this.browser(req), askedHere));
  }

  private browser(req: Request): BrowserContext {
    return browserContext(req, this.secure);
  }

  private send(res: Response, result: PageResult): void {
    sendPage(res, result, this.secure);
  }
}
