import { Controller, Get, Param, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { Throttle } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { Public } from '../../../common/http/public.decorator';
import { formOf } from '../../../common/http/params';
import { RequestId } from '../../../common/http/request-id.decorator';
import { Browser, replyWithPage } from '../../pages/page-requests';
import { PageExceptionFilter } from '../../pages/page-exception.filter';
import { RateLimitGuard } from '../../rate-limit/rate-limit.guard';
import { QUOTA_WINDOW_MS } from '../../rate-limit/throttlers';

import type { BrowserContext } from '../../sessions/cookies';
import {
  BindRequiredUpstreamDocs,
  DirectUpstreamEntryDocs,
  StartUpstreamDocs,
  UpstreamCallbackDocs,
  UpstreamTags,
} from './upstream-sign-in.openapi';
import { UpstreamCallbackGuard, type CallbackRequest } from './upstream-callback.guard';
import { CALLBACKS_PER_ADDRESS, UpstreamCallbackService } from './upstream-callback.service';
import { UpstreamStartService } from './upstream-start.service';
import { continueToProviderPage } from './upstream-pages';
import type { PageLanguage } from '../../../common/i18n/page-language';
import { PageLang } from '../../../common/i18n/page-lang.decorator';

/**
 * Browser routes of upstream sign-in and direct entry: pages and redirects, not an API,
 * so they answer with HTML error pages like the OAuth login page.
 */
@UpstreamTags()
@Public()
@Controller('api/auth/upstream')
@UseFilters(PageExceptionFilter)
export class UpstreamSignInController {
  constructor(
    private readonly starts: UpstreamStartService,
    private readonly callbacks: UpstreamCallbackService,
  ) {}

  @Get(':providerId/start')
  @StartUpstreamDocs()
  async startUpstream(
    @Param('providerId') providerId: string,
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @RequestId() requestId: string,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(res, await this.starts.start(providerId, req.query.request, lang, requestId));
  }

  @Get(':providerId/callback')
  @UpstreamCallbackDocs()
  // The attempt and its state are checked first; only answers that pass count in the quota.
  @UseGuards(UpstreamCallbackGuard, RateLimitGuard)
  @Throttle({ 'upstream-callback': { limit: CALLBACKS_PER_ADDRESS, ttl: QUOTA_WINDOW_MS } })
  async upstreamCallback(
    @Param('providerId') providerId: string,
    @Req() req: CallbackRequest,
    @PageLang() lang: PageLanguage,
    @RequestId() requestId: string,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    const attempt = req.upstreamAttempt;
    if (!attempt) throw new AppError(ErrorCode.ContextMissing, 'Request context is missing');
    replyWithPage(
      res,
      await this.callbacks.callback(providerId, req.query, attempt, lang, browser, requestId),
    );
  }

  @Post(':providerId/bind')
  @BindRequiredUpstreamDocs()
  async bindRequiredUpstream(
    @Param('providerId') providerId: string,
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @RequestId() requestId: string,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    const result = await this.starts.startBindForRequest(
      providerId,
      formOf(req),
      lang,
      browser,
      requestId,
    );
    const { location } = result;
    replyWithPage(
      res,
      location === undefined
        ? result
        : { status: 200, cookies: result.cookies, html: continueToProviderPage(lang, location) },
    );
  }

  @Get(':providerId')
  @DirectUpstreamEntryDocs()
  async directUpstreamEntry(
    @Param('providerId') providerId: string,
    @Req() req: Request,
    @PageLang() lang: PageLanguage,
    @RequestId() requestId: string,
    @Browser() browser: BrowserContext,
    @Res() res: Response,
  ): Promise<void> {
    replyWithPage(
      res,
      await this.starts.direct(providerId, req.query.redirect, lang, browser, requestId),
    );
  }
}
