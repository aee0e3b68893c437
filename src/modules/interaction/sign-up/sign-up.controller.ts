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
  ShowSignUpCodeDocs,
  ShowSignUpDocs,
  SubmitSignUpCodeDocs,
  SubmitSignUpDocs,
} from './sign-up.openapi';
import { SignUpCodeService } from './sign-up-code.service';
import { SignUpFormService } from './sign-up-form.service';

/**
 * The sign-up pages of an authorization: HTML pages and redirects, like the login page. The form
 * is SignUpFormService's, the code page SignUpCodeService's.
 */
@ApiTags('OAuth 2.0 browser endpoints')
@Public()
@Controller('oauth2')
@UseFilters(PageExceptionFilter)
export class SignUpController {
  constructor(
    private readonly form: SignUpFormService,
    private readonly code: SignUpCodeService,
  ) {}

  @Get('signup')
  @ShowSignUpDocs()
  async showForm(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.form.showForm(req.query.request, lang, browser));
  }

  @Post('signup')
  @SubmitSignUpDocs()
  async submitForm(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.form.submitForm(formOf(req), lang, browser));
  }

  @Get('signup/verify')
  @ShowSignUpCodeDocs()
  async showCode(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.code.showCode(req.query, lang, browser));
  }

  @Post('signup/verify')
  @SubmitSignUpCodeDocs()
  async submitCode(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.code.submitCode(formOf(req), lang, browser));
  }
}
