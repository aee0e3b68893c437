import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { logRequestFailure } from '../../common/errors/request-failure-log';
import { AppConfig } from '../../config/app-config';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  isDatabaseUnavailable,
  logDatabaseUnavailable,
} from '../../common/errors/connection-errors';
import { isShownOnPage, PageError, type ErrorPage } from './page-error';
import { sendPage } from './page-result';
import { messagePage } from './page-shell';
import { msg, render } from '../../common/i18n/i18n';
import { RateLimitedError } from '../rate-limit/rate-limit.headers';
import { pageLanguageOf, type PageLanguage } from '../../common/i18n/page-language';

/**
 * Failures of every page (the authorization endpoint's, sign-in, consent, sign-up, reset, the
 * account page) are HTML pages in the page's language, never redirects.
 */
@Catch()
export class PageExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('OAuthPages');

  constructor(private readonly config: AppConfig) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const request = host.switchToHttp().getRequest<Request>();
    if (response.headersSent) return;
    // In the language the request's page had reached when it failed (ui_locales included).
    const lang = pageLanguageOf(request);
    sendErrorPage(response, lang, this.describe(exception, request), this.config.servesHttps);
  }

  private describe(exception: unknown, request: Request): ErrorPage {
    if (exception instanceof PageError) {
      return {
        status: exception.status,
        title: exception.titleText,
        message: exception.messageText,
      };
    }
    if (exception instanceof AppError && exception.code === ErrorCode.RateLimited) {
      // A per-address quota of a sign-in route (the rate limiter set Retry-After already), in
      // the words its refusal names for pages.
      const key = exception instanceof RateLimitedError ? exception.pageMessage : undefined;
      const message = key === undefined ? exception.message : msg(key);
      return { status: 429, title: msg('errors.tooManySignInsTitle'), message };
    }
    // An error of the protocol says how it reads on a page (OAuthError.asPage).
    if (isShownOnPage(exception)) return exception.asPage();
    if (exception instanceof HttpException && exception.getStatus() < 500) {
      return {
        status: exception.getStatus(),
        title: msg('errors.invalidRequestTitle'),
        message: msg('errors.notProcessed'),
      };
    }
    if (isDatabaseUnavailable(exception)) {
      logDatabaseUnavailable(this.logger, exception, request);
      return {
        status: 503,
        title: msg('errors.unavailableTitle'),
        message: msg('errors.unavailable'),
      };
    }
    logRequestFailure(this.logger, exception, request, 'Page failed');
    return { status: 500, title: msg('errors.internalTitle'), message: msg('errors.internal') };
  }
}

/** Writes an HTML error page in `lang` (also used for bodies refused before routing). */
export function sendErrorPage(
  response: Response,
  lang: PageLanguage,
  page: ErrorPage,
  secure: boolean,
): void {
  if (page.status === 503) response.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
  const { t } = lang.translator();
  const html = messagePage(lang, render(page.title, t), render(page.message, t));
  sendPage(response, { status: page.status, html }, secure);
}
