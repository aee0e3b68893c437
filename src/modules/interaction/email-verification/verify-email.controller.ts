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
  constructor(private readonly pages: VerifyEmailPages) {}

  @Get('verify-email')
  @ShowVerifyEmailDocs()
  async show(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.pages.show(req.query.request, lang, browser));
  }

  @Post('verify-email')
  @SendVerifyEmailDocs()
  async sendCode(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.pages.send(formOf(req), lang, browser));
  }

  @Get('verify-email/code')
  @ShowVerifyEmailCodeDocs()
  async showCode(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.pages.showCode(req.query, lang, browser));
  }

  @Post('verify-email/code')
  @ConfirmVerifyEmailDocs()
  async confirm(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.pages.confirm(formOf(req), lang, browser));
  }
}
