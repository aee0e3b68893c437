import { deviceConfirmLocation, loginLocation } from '../../oauth/authorize/login-location';
import { PendingInteractions } from '../pending-interactions';
import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { Application } from '../../applications/application.entity';
import { signUpOffered } from '../sign-up/sign-up-offered';
import type { User } from '../../users/user.entity';
import { AuthorizeService, requestGone } from '../../oauth/authorize/authorize.service';
import { Csrf } from '../../sessions/csrf';
import { GrantService } from '../../oauth/authorize/grant.service';
import { msg, type Text } from '../../../common/i18n/i18n';
import type { PageLanguage } from '../../../common/i18n/page-language';
import { formExpired, PageError } from '../../pages/page-error';
import { OAuthError } from '../../oauth/protocol/oauth-error';
import type { BrowserContext } from '../../sessions/cookies';
import { cspSourceOf, type PageResult } from '../../pages/page-result';
import { consentPage } from './pages/consent.page';
import { bindUpstreamPage } from './pages/bind-upstream.page';
import { loginPage } from './pages/login.page';
import type { Pending } from '../../oauth/authorize/pending-authorizations.service';
import { SessionService } from '../../sessions/session.service';
import type { Params } from '../../../common/http/params';
import { offeredSignIn, type OfferedSignIn } from '../../oauth/authorize/checks/upstream-providers';
import { UpstreamProvidersService } from '../../upstreams/providers/upstream-providers.service';
import { SignInMethods, type SignInAttempt } from '../sign-in/sign-in-methods';
import type { PasskeyCeremonyStart } from '../../passkeys/passkey-view';

/**
 * The login and consent pages of a pending authorization.
 *
 * The pages of one pending authorization: login (password and passkey, through SignInMethods,
 * as the account page signs in), binding an upstream account, and consent. Each step finds the
 * request through PendingInteractions, checks its CSRF token, then hands off to the service
 * that owns that step.
 */
@Injectable()
export class InteractionService {
  constructor(
    private readonly authorize: AuthorizeService,
    private readonly interactions: PendingInteractions,
    private readonly sessions: SessionService,
    private readonly grants: GrantService,
    private readonly csrf: Csrf,
    private readonly upstreamProviders: UpstreamProvidersService,
    private readonly signIn: SignInMethods,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  async showLogin(
    requestId: unknown,
    lang: PageLanguage,
    browser: BrowserContext,
  ): Promise<PageResult> {
    const pending = await this.interactions.pendingFor(requestId, lang);
    return this.renderLogin(pending, lang, browser, 200);
  }

  async submitLogin(
    body: Params,
    lang: PageLanguage,
    browser: BrowserContext,
  ): Promise<PageResult> {
    const pending = await this.interactions.pendingFor(body.request, lang);
    this.checkCsrf(browser, pending, body.csrf_token);
    // upstream_providers without `password` leaves the form out; a hand-made POST is refused too.
    if (!(await this.offered(pending)).password) throw noPasswordLogin();
    return this.signedIn(pending, await this.signIn.password(body, browser.ip), lang, browser);
  }

  /**
   * The checks of POST /oauth2/login/passkey/options, run by its guard before the per-address
   * quota counts it: a live request, the login page's CSRF token, and passkeys offered.
   */
  async checkPasskeyStart(
    body: Params,
    lang: PageLanguage,
    browser: BrowserContext,
  ): Promise<void> {
    const pending = await this.interactions.pendingFor(body.request, lang);
    this.checkCsrf(browser, pending, body.csrf_token);
    if (!(await this.offered(pending)).password) throw noPasskeyLogin();
  }

  /** A discoverable passkey sign-in's options, after checkPasskeyStart and the quota. */
  passkeyOptions(): Promise<PasskeyCeremonyStart> {
    return this.signIn.passkeyOptions();
  }

  /**
   * POST /oauth2/login/passkey: the ceremony id and assertion of the login page's passkey form.
   * A sign-in that does not verify is the login page again (401) with one message for every
   * cause; one that does continues as a password sign-in does. `httpRequestId` is this HTTP
   * request's id (X-Request-Id, for the log line of a refused assertion); elsewhere in this class
   * `requestId` is the sealed authorization request.
   */
  async submitPasskeyLogin(
    body: Params,
    lang: PageLanguage,
    browser: BrowserContext,
    httpRequestId: string,
  ): Promise<PageResult> {
    const pending = await this.interactions.pendingFor(body.request, lang);
    this.checkCsrf(browser, pending, body.csrf_token);
    // Passkeys go with the password form: both are this service's own accounts.
    if (!(await this.offered(pending)).password) throw noPasskeyLogin();
    return this.signedIn(pending, await this.signIn.passkey(body, httpRequestId), lang, browser);
  }

  /**
   * After a sign-in form: a new session for the person (recorded as a sign-in from `browser`)
   * and the authorization goes on (consent, or the code); or the login page again with the
   * refusal.
   */
  private async signedIn(
    pending: Pending,
    attempt: SignInAttempt,
    lang: PageLanguage,
    browser: BrowserContext,
  ): Promise<PageResult> {
    if (attempt.kind === 'refused') {
      const { status, message, username, retryAfterSeconds } = attempt;
      const page = await this.renderLogin(pending, lang, browser, status, message, username);
      return { ...page, retryAfterSeconds };
    }
    const application = await this.interactions.applicationOf(pending);
    return this.authorize.signInAndProceed(
      application,
      attempt.user,
      attempt.method,
      browser,
      pending,
      303,
    );
  }

  /** The signed-in user lacks a required upstream binding (docs/upstreams.md). */
  async showBindUpstream(
    requestId: unknown,
    lang: PageLanguage,
    browser: BrowserContext,
  ): Promise<PageResult> {
    const pending = await this.interactions.pendingFor(requestId, lang);
    const user = await this.sessions.currentUser(browser.sessionCookie);
    if (!user) {
      return {
        status: 302,
        location: loginLocation(pending.sealed),
      };
    }
    const application = await this.interactions.applicationOf(pending);
    const required = application.requiredUpstreams ?? [];
    const providers = (await this.upstreamProviders.listEnabled()).filter((provider) =>
      required.includes(provider.id),
    );
    const { token, cookies } = this.csrf.issue(browser, pending.id);
    const html = bindUpstreamPage(lang, {
      applicationName: application.name,
      username: user.username,
      requestId: pending.sealed,
      csrfToken: token,
      providers: providers.map((provider) => ({
        displayName: provider.displayName,
        action: `/api/auth/upstream/${encodeURIComponent(provider.id)}/bind`,
      })),
    });
    return { status: 200, html, cookies };
  }

  async showConsent(
    requestId: unknown,
    lang: PageLanguage,
    browser: BrowserContext,
  ): Promise<PageResult> {
    const pending = await this.interactions.pendingFor(requestId, lang);
    const signedIn = await this.sessions.current(browser.sessionCookie);
    if (!signedIn)
      return {
        status: 302,
        location: loginLocation(pending.sealed),
      };
    const application = await this.interactions.applicationOf(pending);
    const decision = await this.grants.decide(application, signedIn.user, pending.request);
    if (decision.kind !== 'consent') {
      return this.authorize.proceed(application, signedIn, pending.request, pending, 302);
    }
    return this.renderConsent(pending, lang, application, signedIn.user, browser);
  }

  async submitConsent(
    body: Params,
    lang: PageLanguage,
    browser: BrowserContext,
  ): Promise<PageResult> {
    const pending = await this.interactions.pendingFor(body.request, lang);
    this.checkCsrf(browser, pending, body.csrf_token);
    const signedIn = await this.sessions.current(browser.sessionCookie);
    if (!signedIn) return { status: 303, location: loginLocation(pending.sealed) };
    // A device's request is answered on its confirmation page only: sent here, it stays pending.
    if (pending.request.device !== undefined)
      return { status: 303, location: deviceConfirmLocation(pending.sealed) };
    const decision = body.decision;
    if (decision !== 'approve' && decision !== 'deny') {
      throw new PageError(400, msg('errors.invalidRequestTitle'), msg('errors.chooseDecision'));
    }
    if (!(await this.interactions.take(pending))) throw requestGone();
    const { redirectUri, state } = pending.request;
    if (decision === 'deny') {
      const error = new OAuthError('access_denied', 'The user denied the authorization request');
      return this.authorize.redirectError(
        redirectUri,
        state,
        error,
        303,
        pending.request.issuerPath,
      );
    }
    const application = await this.interactions.applicationOf(pending);
    return this.authorize.finish(application, signedIn, pending.request, true, 303);
  }

  private async renderLogin(
    pending: Pending,
    lang: PageLanguage,
    browser: BrowserContext,
    status: number,
    error?: Text,
    username?: string,
  ): Promise<PageResult> {
    const application = await this.interactions.applicationOf(pending);
    // Never empty: a list that offers no provider keeps the password form (offeredSignIn).
    const offered = await this.offered(pending);
    const { token, cookies } = this.csrf.issue(browser, pending.id);
    const request = encodeURIComponent(pending.sealed);
    const html = loginPage(lang, {
      applicationName: application.name,
      requestId: pending.sealed,
      csrfToken: token,
      passwordLogin: offered.password,
      passkeyLogin: offered.password,
      providers: offered.providers.map((provider) => ({
        displayName: provider.displayName,
        startUrl: `/api/auth/upstream/${encodeURIComponent(provider.id)}/start?request=${request}`,
      })),
      error,
      username,
      signUpUrl: signUpOffered(this.config, application, offered.password)
        ? `/oauth2/signup?request=${request}`
        : undefined,
    });
    const formTarget = cspSourceOf(pending.request.redirectUri);
    // The passkey form's script; a page without it runs none.
    return { status, html, cookies, formTarget, ownScript: offered.password };
  }

  private renderConsent(
    pending: Pending,
    lang: PageLanguage,
    application: Application,
    user: User,
    browser: BrowserContext,
  ): PageResult {
    const { token, cookies } = this.csrf.issue(browser, pending.id);
    const html = consentPage(lang, {
      applicationName: application.name,
      logo: application.logo,
      username: user.username,
      scope: pending.request.scope,
      requestId: pending.sealed,
      csrfToken: token,
    });
    return { status: 200, html, cookies, formTarget: cspSourceOf(pending.request.redirectUri) };
  }

  private async offered(pending: Pending): Promise<OfferedSignIn> {
    return offeredSignIn(
      pending.request.upstreamProviders,
      await this.upstreamProviders.listEnabled(),
    );
  }

  private checkCsrf(browser: BrowserContext, pending: Pending, token: unknown): void {
    if (!this.csrf.verify(browser, pending.id, token)) {
      throw formExpired();
    }
  }
}

function noPasskeyLogin(): PageError {
  return new PageError(400, msg('errors.passkeyNotOfferedTitle'), msg('errors.passkeyNotOffered'));
}

function noPasswordLogin(): PageError {
  return new PageError(
    400,
    msg('errors.passwordNotOfferedTitle'),
    msg('errors.passwordNotOffered'),
  );
}
