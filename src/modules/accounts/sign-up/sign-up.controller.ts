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
  private readonly secure: boolean;

  constructor(
    @Inject(AppConfig) config: AppConfig,
    private readonly form: SignUpFormService,
    private readonly code: SignUpCodeService,
  ) {
    this.secure = config.servesHttps;
  }

  @Get('signup')
  @ShowSignUpDocs()
  async showForm(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Res() res: Response,
  ): Promise<void> {
    this.send(res, await this.form.showForm(req.query.request, lang, this.browser(req)));
  }

  @Post('signup')
  @SubmitSignUpDocs()
  async submitForm(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Res() res: Response,
  ): Promise<void> {
    this.send(res, await this.form.submitForm(formOf(req), lang, this.browser(req)));
  }

  @Get('signup/verify')
  @ShowSignUpCodeDocs()
  async showCode(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Res() res: Response,
  ): Promise<void> {
    this.send(res, await this.code.showCode(req.query, lang, this.browser(req)));
  }

  @Post('signup/verify')
  @SubmitSignUpCodeDocs()
  async submitCode(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Res() res: Response,
  ): Promise<void> {
    this.send(res, await this.code.submitCode(formOf(req), lang, this.browser(req)));
  }

  private browser(req: Request): BrowserContext {
    return browserContext(req, this.secure);
  }

  private send(res: Response, result: PageResult): void {
    sendPage(res, result, this.secure);
  }
}
