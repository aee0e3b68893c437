import { deviceConfirmLocation, loginLocation } from './login-location';
import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Clock } from '../../../common/clock';
import { AppConfig } from '../../../config/app-config';
import { Application } from '../../applications/application.entity';
import { issuerUrl, type IssuerPath } from '../../signing-keys/issuers';
import type { AuthorizationRequest } from './authorization-request';
import { GrantService } from './grant.service';
import { PageError } from '../../pages/page-error';
import { OAuthError } from '../protocol/oauth-error';
import type { BrowserContext } from '../../sessions/cookies';
import type { PageResult } from '../../pages/page-result';
import { cspSourceOf } from '../../pages/page-result';
import { PendingAuthorizationsService, type Pending } from './pending-authorizations.service';
import { sessionCookie, SessionService, type CurrentSession } from '../../sessions/session.service';
import type { SessionAuthMethod } from '../../sessions/oauth-session.entity';
import type { User } from '../../users/user.entity';
import { checkClient } from './checks/check-client';
import { signInTooOld } from './checks/check-oidc-params';
import { checkRedirectUri } from './checks/check-redirect-uri';
import { validateAuthorizationRequest } from './validate-request';
import { PushedRequestStore } from '../par/pushed-requests.store';
import { isPushedRequestUri } from '../par/request-uri';
import { type Params } from '../../../common/http/params';
import { msg } from '../../../common/i18n/i18n';
import type { PageLanguage } from '../../../common/i18n/page-language';

/**
 * GET /oauth2/authorize (docs/contract/oauth.md#authorization-request): validates the request step by step, then sends the
 * browser to login, to consent, or back to the client with a code or an error.
 */
@Injectable()
export class AuthorizeService {
  constructor(
    @InjectRepository(Application) private readonly applications: Repository<Application>,
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly sessions: SessionService,
    private readonly pending: PendingAuthorizationsService,
    private readonly grants: GrantService,
    private readonly clock: Clock,
    private readonly pushed: PushedRequestStore,
  ) {}

  /**
   * `status`: 302 for GET, 303 for the POST form of the request (OIDC Core 3.1.2.1), whose every
   * answer then leads the browser on with a GET. `issuerPath`: the alias issuer when the request
   * came to its endpoint (/api/oidc/auth). `lang`: the page's language, which ui_locales sets.
   */
  async start(
    query: Params,
    lang: PageLanguage,
    browser: BrowserContext,
    status: 302 | 303 = 302,
    issuerPath: IssuerPath | null = null,
  ): Promise<PageResult> {
    const checked = await this.check(query, lang, status, issuerPath);
    if ('status' in checked) return checked;
    const { application, request } = checked;
    const current = await this.sessions.current(browser.sessionCookie);
    // OIDC Core 3.1.2.1: prompt=login, or a sign-in older than max_age, counts as none
    // (prompt=none: login_required; otherwise the login page, whose new session is fresh).
    const signedIn =
      current &&
      !request.prompts?.includes('login') &&
      !signInTooOld(request.maxAge, current.session.createdAt, this.clock.now())
        ? current
        : null;
    if (request.prompt === 'none') return this.silent(application, signedIn, request, status);
    if (!signedIn) {
      // Anonymous: nothing is stored, the request travels sealed (ADR 0003).
      const sealed = this.pending.create(request);
      return { status, location: loginLocation(sealed) };
    }
    if (request.prompts?.includes('select_account')) {
      // OIDC Core 3.1.2.1: offer the signed-in account or another one (interaction/interaction.service.ts).
      const sealed = this.pending.create(request);
      return { status, location: `/oauth2/select-account?request=${encodeURIComponent(sealed)}` };
    }
    return this.proceed(application, signedIn, request, null, status);
  }

  /**
   * Every step of the pipeline: the valid request, or the answer to an invalid one (a redirect
   * with the error once client and redirect_uri are validated). Direct upstream entry
   * (interaction/upstream-sign-in/) validates its request here too.
   */
  async check(
    query: Params,
    lang: PageLanguage,
    status: 302 | 303 = 302,
    issuerPath: IssuerPath | null = null,
  ): Promise<{ application: Application; request: AuthorizationRequest } | PageResult> {
    // The pages from here on (errors included) speak the language ui_locales asks for.
    lang.useUiLocales(query.ui_locales);
    // Until client and redirect_uri are validated, errors are pages (PageError), never redirects.
    const application = await checkClient(query, this.applications);
    const pushed = await this.takePushed(query, application);
    if (pushed !== null) lang.useUiLocales(pushed.ui_locales);
    const params = pushed ?? query;
    const redirectUri = checkRedirectUri(params, application);
    const state = typeof params.state === 'string' ? params.state : null;
    try {
      const route =
        pushed !== null ? 'pushed' : { direct: { pushRequired: this.mustPush(application) } };
      const request = validateAuthorizationRequest(params, application, redirectUri, route);
      return { application, request: issuerPath === null ? request : { ...request, issuerPath } };
    } catch (error) {
      if (error instanceof OAuthError) {
        return this.redirectError(redirectUri, state, error, status, issuerPath);
      }
      throw error;
    }
  }

  /**
   * RFC 9126 section 4: with a request_uri this service issued, the request is the one pushed by
   * `application` (the client_id sent), taken for its one use, and every other parameter of the
   * URL is ignored. Unknown, used, expired or another client's: a page, since no redirect_uri
   * can be trusted (invalid_request_uri). Null for a request without one.
   */
  private async takePushed(query: Params, application: Application): Promise<Params | null> {
    if (!isPushedRequestUri(query.request_uri)) return null;
    const pushed = await this.pushed.take(query.request_uri, application.id);
    if (pushed === null) {
      throw new PageError(
        400,
        msg('errors.invalidRequestUriTitle'),
        msg('errors.invalidRequestUri'),
      );
    }
    return pushed;
  }

  /**
   * RFC 9126 section 5: the client's require_pushed_authorization_requests, or the deployment's;
   * and every client under a security profile (FAPI 2.0 section 5.3.2.2).
   */
  private mustPush(application: Application): boolean {
    return (
      this.config.requirePushedAuthorizationRequests ||
      application.requirePushedAuthorizationRequests ||
      application.securityProfile !== null
    );
  }

  /**
   * A sign-in on one of the request's pages (password, passkey, upstream, sign-up, reset): a new
   * session of `user` in this browser, then the authorization goes on as `proceed` decides, with
   * the session cookie set on the answer.
   */
  async signInAndProceed(
    application: Application,
    user: User,
    method: SessionAuthMethod,
    browser: BrowserContext,
    pending: Pending,
    status: 302 | 303,
  ): Promise<PageResult> {
    const created = await this.sessions.create(user.id, method, browser);
    const signedIn = { user, session: created.session };
    const next = await this.proceed(application, signedIn, pending.request, pending, status);
    return { ...next, cookies: [...(next.cookies ?? []), sessionCookie(created)] };
  }

  /**
   * The interactive flow once the user is known: deny, send to consent (or to verify the email
   * or bind the upstream account the application requires), or (when an earlier grant covers
   * the scopes) issue a code at once.
   */
  async proceed(
    application: Application,
    signedIn: CurrentSession,
    request: AuthorizationRequest,
    pending: Pending | null,
    status: 302 | 303,
  ): Promise<PageResult> {
    const decision = await this.grants.decide(application, signedIn.user, request);
    if (decision.kind === 'consent' && request.device === undefined) {
      const sealed = pending?.sealed ?? this.pending.create(request);
      return { status, location: `/oauth2/consent?request=${encodeURIComponent(sealed)}` };
    }
    if (decision.kind === 'denied' && decision.unverifiedEmail) {
      // The application requires a verified email: offer to verify it (interaction/email-verification/).
      const sealed = pending?.sealed ?? this.pending.create(request);
      return { status, location: `/oauth2/verify-email?request=${encodeURIComponent(sealed)}` };
    }
    if (decision.kind === 'denied' && decision.missingUpstreams) {
      // Required upstream: ask the signed-in user to bind one of the required providers.
      const sealed = pending?.sealed ?? this.pending.create(request);
      return { status, location: `/oauth2/bind-upstream?request=${encodeURIComponent(sealed)}` };
    }
    // RFC 8628: a device's request goes to its confirmation page, which always asks.
    const device = request.device && (pending?.sealed ?? this.pending.create(request));
    if (device) return { status, location: deviceConfirmLocation(device) };
    if (pending !== null && !(await this.pending.take(pending))) throw requestGone();
    if (decision.kind === 'denied')
      return this.redirectError(
        request.redirectUri,
        request.state,
        interactive(decision.error),
        status,
        request.issuerPath,
      );
    return this.finish(application, signedIn, request, false, status);
  }

  /** Grants and redirects with the code, or redirects with the error found under lock. */
  async finish(
    application: Application,
    signedIn: CurrentSession,
    request: AuthorizationRequest,
    consented: boolean,
    status: 302 | 303,
  ): Promise<PageResult> {
    if (request.device !== undefined) throw requestGone(); // answered on its confirmation page
    const outcome = await this.grants.grant(application, signedIn, request, consented);
    if ('error' in outcome) {
      const error = request.prompt === 'none' ? outcome.error : interactive(outcome.error);
      return this.redirectError(
        request.redirectUri,
        request.state,
        error,
        status,
        request.issuerPath,
      );
    }
    return this.redirectTo(
      request.redirectUri,
      { code: outcome.code, state: request.state },
      status,
      request.issuerPath,
    );
  }

  /** prompt=none (docs/contract/oauth.md#silent-authentication): never a page, always straight back to the client. */
  private async silent(
    application: Application,
    signedIn: CurrentSession | null,
    request: AuthorizationRequest,
    status: 302 | 303,
  ): Promise<PageResult> {
    if (!signedIn) {
      return this.redirectError(
        request.redirectUri,
        request.state,
        new OAuthError('login_required', 'The user is not signed in'),
        status,
        request.issuerPath,
      );
    }
    return this.finish(application, signedIn, request, false, status);
  }

  redirectError(
    redirectUri: string,
    state: string | null,
    error: OAuthError,
    status: 302 | 303,
    issuerPath?: IssuerPath | null,
  ): PageResult {
    return this.redirectTo(
      redirectUri,
      { error: error.error, error_description: error.description, state },
      status,
      issuerPath,
    );
  }

  /**
   * A redirect to the validated redirect_uri, always with `iss` (RFC 9207): the issuer the
   * request was sent to (signing-keys/issuers.ts).
   */
  redirectTo(
    redirectUri: string,
    params: Record<string, string | null>,
    status: 302 | 303,
    issuerPath?: IssuerPath | null,
  ): PageResult {
    const url = new URL(redirectUri);
    for (const [name, value] of Object.entries(params)) {
      if (value !== null) url.searchParams.set(name, value);
    }
    url.searchParams.set('iss', issuerUrl(this.config.publicBaseUrl, issuerPath));
    return { status, location: url.toString(), formTarget: cspSourceOf(redirectUri) };
  }
}

/** interaction_required is a prompt=none answer; in the interactive flow the user is denied. */
function interactive(error: OAuthError): OAuthError {
  return error.error === 'interaction_required'
    ? new OAuthError('access_denied', error.description)
    : error;
}

export function requestGone(): PageError {
  return new PageError(400, msg('errors.requestExpiredTitle'), msg('errors.requestExpired'));
}
