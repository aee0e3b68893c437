import { PendingInteractions } from '../pending-interactions';
import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { AuthorizeService } from '../../oauth/authorize/authorize.service';
import { allowsProvider } from '../../oauth/authorize/checks/upstream-providers';
import { PageError } from '../../pages/page-error';
import type { PageResult } from '../../pages/page-result';
import { type Params } from '../../../common/http/params';
import type { BrowserContext } from '../../sessions/cookies';
import { Csrf } from '../../sessions/csrf';
import { SessionService } from '../../sessions/session.service';
import { authorizeQueryOf } from './direct-entry';
import type { BindReturnPage } from './upstream-attempt';
import { upstreamFailure } from './upstream-pages';
import { UpstreamTrips } from './upstream-trips.service';
import type { PageLanguage } from '../../../common/i18n/page-language';
import { msg } from '../../../common/i18n/i18n';

/**
 * Starting a trip to an upstream provider (docs/upstreams.md): sign-in from the login page's
 * links or by direct entry, binding from the console API or the required-upstream page. Each
 * checks who may start it and for which provider, then UpstreamTrips sends the browser to the
 * provider with fresh state (+ PKCE verifier and nonce) sealed in a cookie. Every entry point
 * takes `requestId`, the id of the HTTP request it serves (X-Request-Id), to name in the log
 * line of a provider failure.
 */
@Injectable()
export class UpstreamStartService {
  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly trips: UpstreamTrips,
    private readonly authorize: AuthorizeService,
    private readonly interactions: PendingInteractions,
    private readonly sessions: SessionService,
    private readonly csrf: Csrf,
  ) {}

  /** GET /api/auth/upstream/{providerId}/start?request=… (the login page's links). */
  async start(
    providerId: string,
    sealedRequest: unknown,
    lang: PageLanguage,
    requestId: string,
  ): Promise<PageResult> {
    const pending = await this.interactions.pendingFor(sealedRequest, lang);
    const provider = await this.trips.allowedProvider(providerId, pending);
    return this.trips.depart(provider, { purpose: 'sign-in', request: pending.sealed }, requestId);
  }

  /**
   * GET /api/auth/upstream/{providerId}?redirect=<this service's /oauth2/authorize URL> (direct
   * entry): validates that authorization request and starts the provider at once.
   */
  async direct(
    providerId: string,
    redirect: unknown,
    lang: PageLanguage,
    browser: BrowserContext,
    requestId: string,
  ): Promise<PageResult> {
    const query = authorizeQueryOf(redirect, this.config.publicBaseUrl);
    if (!query) {
      throw new PageError(
        400,
        msg('errors.invalidRequestTitle'),
        msg('upstream.directNotAuthorize'),
      );
    }
    const checked = await this.authorize.check(query, lang);
    if ('status' in checked) return checked;
    // prompt=none never involves a provider: the ordinary silent answer.
    if (checked.request.prompt === 'none') return this.authorize.start(query, lang, browser);
    return this.start(providerId, this.interactions.open(checked.request), lang, requestId);
  }

  /**
   * Binding another provider to the signed-in user (docs/upstreams.md), started from the console
   * API (POST with its CSRF token, so no other site can start it and bind its own upstream
   * account to the victim's) by the console's or the account page's script; the callback
   * returns to `returnTo`.
   */
  async startBind(
    userId: string,
    providerId: string,
    returnTo: BindReturnPage | undefined,
    requestId: string,
  ): Promise<PageResult> {
    const provider = await this.trips.find(providerId);
    if (!provider || !allowsProvider(null, provider)) throw upstreamFailure('not_offered');
    return this.trips.depart(
      provider,
      { purpose: 'bind', userId, returnTo: returnTo ?? 'console' },
      requestId,
    );
  }

  /**
   * POST /api/auth/upstream/{providerId}/bind from the bind-upstream page (required upstream): the
   * signed-in user binds a provider the application requires, then the request continues.
   */
  async startBindForRequest(
    providerId: string,
    form: Params,
    lang: PageLanguage,
    browser: BrowserContext,
    requestId: string,
  ): Promise<PageResult> {
    const pending = await this.interactions.pendingFor(form.request, lang);
    if (!this.csrf.verify(browser, pending.id, form.csrf_token)) {
      throw new PageError(403, msg('errors.formExpiredTitle'), msg('errors.formExpiredShort'));
    }
    const user = await this.sessions.currentUser(browser.sessionCookie);
    if (!user) throw upstreamFailure('no_attempt');
    const application = await this.interactions.applicationOrNull(pending);
    const provider = await this.trips.find(providerId);
    if (!application || !provider || !application.requiredUpstreams.includes(provider.id)) {
      throw upstreamFailure('not_offered');
    }
    return this.trips.depart(
      provider,
      { purpose: 'bind', userId: user.id, request: pending.sealed },
      requestId,
    );
  }
}
