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
import { browserContext, type BrowserContext } from '../../sessions/cookies';
import {
  ConfirmVerifyEmailDocs,
  SendVerifyEmailDocs,
  ShowVerifyEmailCodeDocs,
  ShowVerifyEmailDocs,
} from './verify-email.openapi';
import { VerifyEmailPages } from './verify-email-pages.service';

/** The email verification pages of an authorization: HTML pages and redirects. */
@ApiTags('OAuth 2.0 browser endpoints')
@Public()
@Controller('oauth2')
@UseFilters(PageExceptionFilter)
export class VerifyEmailController {
  private readonly secure: boolean;

  constructor(
    @Inject(AppConfig) config: AppConfig,
    private readonly pages: VerifyEmailPages,
  ) {
    this.secure = config.servesHttps;
  }

  @Get('verify-email')
  @ShowVerifyEmailDocs()
  async show(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Res() res: Response,
  ): Promise<void> {
    this.send(res, await this.pages.show(req.query.request, lang, this.browser(req)));
  }

  @Post('verify-email')
  @SendVerifyEmailDocs()
  async sendCode(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Res() res: Response,
  ): Promise<void> {
    this.send(res, await this.pages.send(formOf(req), lang, this.browser(req)));
  }

  @Get('verify-email/code')
  @ShowVerifyEmailCodeDocs()
  async showCode(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Res() res: Response,
  ): Promise<void> {
    this.send(res, await this.pages.showCode(req.query, lang, this.browser(req)));
  }

  @Post('verify-email/code')
  @ConfirmVerifyEmailDocs()
  async confirm(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Res() res: Response,
  ): Promise<void> {
    this.send(res, await this.pages.confirm(formOf(req), lang, this.browser(req)));
  }

  private browser(req: Request): BrowserContext {
    return browserContext(req, this.secure);
  }

  private send(res: Response, result: PageResult): void {
    sendPage(res, result, this.secure);
  }
}
