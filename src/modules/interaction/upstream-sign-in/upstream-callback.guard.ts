import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AppConfig } from '../../../config/app-config';
import { readCookie } from '../../sessions/cookies';
import { pageLanguageOf } from '../../../common/i18n/page-language';
import type { UpstreamAttempt } from './upstream-attempt';
import { UpstreamTrips } from './upstream-trips.service';

export type CallbackRequest = Request & { upstreamAttempt?: UpstreamAttempt };

/**
 * The callback's own check, before its per-address quota counts it (the route's guards run in
 * order): the answer must belong to the attempt sealed in this browser's cookie, else the
 * no_attempt or invalid_state page. Leaves the opened attempt on the request for the handler.
 */
@Injectable()
export class UpstreamCallbackGuard implements CanActivate {
  private readonly secure: boolean;

  constructor(
    @Inject(AppConfig) config: AppConfig,
    private readonly trips: UpstreamTrips,
  ) {
    this.secure = config.servesHttps;
  }

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<CallbackRequest>();
    const providerId = typeof req.params.providerId === 'string' ? req.params.providerId : '';
    const cookie = readCookie(req, 'upstream', this.secure);
    const lang = pageLanguageOf(req);
    req.upstreamAttempt = this.trips.answeredAttempt(providerId, req.query, cookie, lang);
    return true;
  }
}
