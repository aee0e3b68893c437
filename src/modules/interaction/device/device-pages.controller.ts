import { Controller, Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { formOf } from '../../../common/http/params';
import { Public } from '../../../common/http/public.decorator';
import { PageLang } from '../../../common/i18n/page-lang.decorator';
import type { PageLanguage } from '../../../common/i18n/page-language';
import { PageExceptionFilter } from '../../pages/page-exception.filter';
import { Browser, replyWithPage } from '../../pages/page-requests';
import type { BrowserContext } from '../../sessions/cookies';
import {
  ShowConfirmDocs,
  ShowDeviceDocs,
  SubmitConfirmDocs,
  SubmitDeviceDocs,
} from './device-pages.openapi';
import { DevicePagesService } from './device-pages.service';

/** The device page (RFC 8628 section 3.3; docs/oauth.md, "Device authorization grant"). */
@ApiTags('OAuth 2.0 browser endpoints')
@Public()
@Controller('device')
@UseFilters(PageExceptionFilter)
export class DevicePagesController {
  constructor(private readonly pages: DevicePagesService) {}

  @Get()
  @ShowDeviceDocs()
  showEntry(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): void {
    replyWithPage(res, this.pages.showEntry(req.query, lang, browser));
  }

  @Post()
  @SubmitDeviceDocs()
  async submitEntry(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.pages.submitEntry(formOf(req), lang, browser));
  }

  @Get('confirm')
  @ShowConfirmDocs()
  async showConfirm(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.pages.showConfirm(req.query.request, lang, browser));
  }

  @Post('confirm')
  @SubmitConfirmDocs()
  async submitConfirm(
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.pages.submitConfirm(formOf(req), lang, browser));
  }
}
