import { loginLocation } from '../../oauth/authorize/login-location';
import { PendingInteractions } from '../pending-interactions';
import { Injectable } from '@nestjs/common';
import { AuthorizeService } from '../../oauth/authorize/authorize.service';
import { Csrf } from '../../sessions/csrf';
import { formExpired, PageError } from '../../pages/page-error';
import { CLEAR_SESSION, type BrowserContext } from '../../sessions/cookies';
import { cspSourceOf, type PageResult } from '../../pages/page-result';
import { selectAccountPage } from './pages/select-account.page';
import { SessionService } from '../../sessions/session.service';
import { type Params } from '../../../common/http/params';
import { msg } from '../../../common/i18n/i18n';
import type { PageLanguage } from '../../../common/i18n/page-language';

/**
 * prompt=select_account (OIDC Core 3.1.2.1): the signed-in user continues as themselves, or
 * signs out here and is shown the login page of the same request ("Use another account").
 */
@Injectable()
export class SelectAccountService {
  constructor(
    private readonly authorize: AuthorizeService,
    private readonly interactions: PendingInteractions,
    private readonly sessions: SessionService,
    private readonly csrf: Csrf,
  ) {}

  async show(requestId: unknown, lang: PageLanguage, browser: BrowserContext): Promise<PageResult> {
    const pending = await this.interactions.pendingFor(requestId, lang);
    const signedIn = await this.sessions.current(browser.sessionCookie);
    if (!signedIn) return { status: 302, location: loginLocation(pending.sealed) };
    const application = await this.interactions.applicationOf(pending);
    const { token, cookies } = this.csrf.issue(browser, pending.id);
    const html = selectAccountPage(lang, {
      applicationName: application.name,
      username: signedIn.user.username,
      requestId: pending.sealed,
      csrfToken: token,
    });
    return { status: 200, html, cookies, formTarget: cspSourceOf(pending.request.redirectUri) };
  }

  async submit(body: Params, lang: PageLanguage, browser: BrowserContext): Promise<PageResult> {
    const pending = await this.interactions.pendingFor(body.request, lang);
    if (!this.csrf.verify(browser, pending.id, body.csrf_token)) throw formExpired();
    const decision = body.decision;
    if (decision !== 'continue' && decision !== 'switch') {
      throw new PageError(400, msg('errors.invalidRequestTitle'), msg('errors.chooseAccount'));
    }
    const signedIn = await this.sessions.current(browser.sessionCookie);
    if (decision === 'switch' || !signedIn) {
      await this.sessions.destroy(browser.sessionCookie);
      return { status: 303, location: loginLocation(pending.sealed), cookies: [CLEAR_SESSION] };
    }
    const application = await this.interactions.applicationOf(pending);
    return this.authorize.proceed(application, signedIn, pending.request, pending, 303);
  }
}
