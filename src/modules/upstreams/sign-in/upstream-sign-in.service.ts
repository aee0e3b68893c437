import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { timingSafeEqual } from 'node:crypto';
import { DataSource, Repository } from 'typeorm';
import { Clock } from '../../../common/clock';
import { Metrics } from '../../../common/metrics/metrics';
import { sha256Hex } from '../../../common/crypto/hash';
import { newOpaqueToken } from '../../../common/crypto/opaque-token';
import { AppConfig } from '../../../config/app-config';
import { Application } from '../../applications/application.entity';
import { AuditLog } from '../../audit/audit-log.service';
import { AuthorizeService, requestGone } from '../../oauth/authorize/authorize.service';
import { Csrf } from '../../sessions/csrf';
import { PageError } from '../../oauth/protocol/oauth-error';
import type { PageResult } from '../../oauth/protocol/page-result';
import type { BrowserContext } from '../../sessions/cookies';
import {
  PendingAuthorizationsService,
  type Pending,
} from '../../oauth/authorize/pending-authorizations.service';
import { SessionService } from '../../sessions/session.service';
import type { Params } from '../../oauth/protocol/params';
import { allowsProvider } from '../../oauth/authorize/checks/upstream-providers';
import type { User } from '../../users/user.entity';
import { UpstreamIdentitiesService } from '../identities/upstream-identities.service';
import {
  UpstreamError,
  type StartParams,
  type UpstreamProvider,
} from '../providers/upstream-provider';
import { UpstreamProvidersService } from '../providers/upstream-providers.service';
import { authorizeQueryOf } from './direct-entry';
import {
  ATTEMPT_TTL_SECONDS,
  AttemptSealer,
  BIND_RETURN_PAGES,
  type BindReturnPage,
  type UpstreamAttempt,
} from './upstream-attempt';
import { upstreamFailure } from './upstream-pages';
import type { PageLanguage } from '../../../common/i18n/page-language';
import { msg } from '../../../common/i18n/i18n';

/**
 * Upstream callbacks that record a spent state (one oauth_spent_authorization_requests row
 * each) allowed per client address per 15 minutes (docs/security.md, "Anonymous requests that
 * keep state"); the start writes nothing (its attempt travels sealed in a cookie). The limit of
 * the 'upstream-callback' throttler on the callback route.
 */
export const CALLBACKS_PER_ADDRESS = 60;

/**
 * Sign-in through an upstream provider (docs/upstreams.md): start sends the browser to the
 * provider with fresh state (+ PKCE verifier and nonce) sealed in a cookie; the callback checks
 * them, has the provider kind complete the exchange, finds or creates the user, signs in and
 * continues the authorization request exactly as POST /oauth2/login does.
 */
@Injectable()
export class UpstreamSignInService {
  private readonly logger = new Logger(UpstreamSignInService.name);
  private readonly sealer: AttemptSealer;

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    @InjectRepository(Application) private readonly applications: Repository<Application>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly providers: UpstreamProvidersService,
    private readonly identities: UpstreamIdentitiesService,
    private readonly authorize: AuthorizeService,
    private readonly pending: PendingAuthorizationsService,
    private readonly sessions: SessionService,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
    private readonly csrf: Csrf,
    private readonly metrics: Metrics,
  ) {
    this.sealer = new AttemptSealer(config.sessionSecret);
  }

  /**
   * GET /api/auth/upstream/{providerId}/start?request=… (the login page's links). Every entry
   * point takes `requestId`, the id of the HTTP request it serves (X-Request-Id), to name in the
   * log line of a provider failure.
   */
  async start(
    providerId: string,
    sealedRequest: unknown,
    lang: PageLanguage,
    requestId: string,
  ): Promise<PageResult> {
    const pending = await this.pending.findForPage(sealedRequest, lang);
    if (!pending) throw requestGone();
    const provider = await this.allowedProvider(providerId, pending);
    const attempt = this.newAttempt(provider, { purpose: 'sign-in', request: pending.sealed });
    return this.toProvider(provider, attempt, requestId);
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
    const provider = await this.providers.find(providerId);
    if (!provider || !allowsProvider(null, provider)) throw upstreamFailure('not_offered');
    const attempt = this.newAttempt(provider, {
      purpose: 'bind',
      userId,
      returnTo: returnTo ?? 'console',
    });
    return this.toProvider(provider, attempt, requestId);
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
    const pending = await this.pending.findForPage(form.request, lang);
    if (!pending) throw requestGone();
    if (!this.csrf.verify(browser, pending.id, form.csrf_token)) {
      throw new PageError(403, msg('errors.formExpiredTitle'), msg('errors.formExpiredShort'));
    }
    const user = await this.sessions.currentUser(browser.sessionCookie);
    if (!user) throw upstreamFailure('no_attempt');
    const application = await this.applications.findOneBy({ id: pending.request.applicationId });
    const provider = await this.providers.find(providerId);
    if (!application || !provider || !application.requiredUpstreams.includes(provider.id)) {
      throw upstreamFailure('not_offered');
    }
    const attempt = this.newAttempt(provider, {
      purpose: 'bind',
      userId: user.id,
      request: pending.sealed,
    });
    return this.toProvider(provider, attempt, requestId);
  }

  /** A new trip to `provider`: fresh state, nonce and PKCE verifier, valid for the attempt's TTL. */
  private newAttempt(
    provider: UpstreamProvider,
    trip: Pick<UpstreamAttempt, 'purpose' | 'request' | 'userId' | 'returnTo'>,
  ): UpstreamAttempt {
    return {
      ...trip,
      providerId: provider.id,
      state: newOpaqueToken(),
      nonce: newOpaqueToken(),
      codeVerifier: newOpaqueToken(),
      exp: Math.floor(this.clock.now().getTime() / 1000) + ATTEMPT_TTL_SECONDS,
    };
  }

  private async toProvider(
    provider: UpstreamProvider,
    attempt: UpstreamAttempt,
    requestId: string,
  ): Promise<PageResult> {
    const location = await this.guard(requestId, () =>
      this.providers.authorizationUrl(provider, this.startParams(provider, attempt)),
    );
    return {
      status: 302,
      location,
      cookies: [
        { name: 'upstream', value: this.sealer.seal(attempt), maxAge: ATTEMPT_TTL_SECONDS },
      ],
    };
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
    return this.start(providerId, this.pending.create(checked.request), lang, requestId);
  }

  /**
   * The first step of GET /api/auth/upstream/{providerId}/callback (UpstreamCallbackGuard): the
   * attempt sealed in this browser's cookie, which the provider's answer must carry the state
   * of. Only an answer that passes is counted in the per-address quota of callbacks.
   */
  answeredAttempt(
    providerId: string,
    query: Params,
    attemptCookie: string | undefined,
    lang: PageLanguage,
  ): UpstreamAttempt {
    const attempt = this.openAttempt(providerId, attemptCookie, lang);
    const answered = typeof query.state === 'string' ? query.state : '';
    if (!sameSecret(answered, attempt.state)) throw upstreamFailure('invalid_state');
    return attempt;
  }

  /** GET /api/auth/upstream/{providerId}/callback: the provider's answer to `attempt`. */
  async callback(
    providerId: string,
    query: Params,
    attempt: UpstreamAttempt,
    lang: PageLanguage,
    browser: BrowserContext,
    requestId: string,
  ): Promise<PageResult> {
    if (!(await this.spend(attempt))) throw upstreamFailure('replayed');
    if (attempt.purpose === 'bind') {
      return this.finishBind(attempt, query, lang, browser, requestId);
    }
    const pending = await this.pending.findForPage(attempt.request, lang);
    if (!pending) throw requestGone();
    const provider = await this.allowedProvider(providerId, pending);
    const callbackQuery = stringsOf(query);
    const method = `upstream:${provider.kind}` as const;
    const profile = await this.guard(
      requestId,
      () => this.providers.complete(provider, callbackQuery, this.startParams(provider, attempt)),
      () => this.metrics.login(method, 'upstream_error'),
    );
    const outcome = await this.identities.signIn({
      providerId: provider.id,
      subject: profile.subject,
      profile: {
        username: profile.username,
        email: profile.email,
        emailVerified: profile.emailVerified,
        avatar: profile.avatar,
        providerData: profile.providerData,
      },
    });
    if (outcome.kind === 'email_taken') {
      this.metrics.login(method, 'email_taken');
      throw upstreamFailure('email_taken', provider.displayName);
    }
    this.metrics.login(method, 'success');
    return this.signIn(outcome.user, pending, browser);
  }

  private async finishBind(
    attempt: UpstreamAttempt,
    query: Params,
    lang: PageLanguage,
    browser: BrowserContext,
    requestId: string,
  ): Promise<PageResult> {
    const signedIn = await this.sessions.current(browser.sessionCookie);
    if (!signedIn || signedIn.user.id !== attempt.userId) throw upstreamFailure('no_attempt');
    const { user } = signedIn;
    const provider = await this.providers.find(attempt.providerId);
    if (!provider) throw upstreamFailure('not_offered');
    const callbackQuery = stringsOf(query);
    const method = `upstream:${provider.kind}` as const;
    const profile = await this.guard(
      requestId,
      () => this.providers.complete(provider, callbackQuery, this.startParams(provider, attempt)),
      () => this.metrics.login(method, 'upstream_error'),
    );
    // The binding and its audit record commit together.
    const outcome = await this.dataSource.transaction(async (manager) => {
      const bound = await this.identities.bind(
        user.id,
        {
          providerId: provider.id,
          subject: profile.subject,
          profile: {
            username: profile.username,
            email: profile.email,
            emailVerified: profile.emailVerified,
            avatar: profile.avatar,
            providerData: profile.providerData,
          },
        },
        manager,
      );
      if (bound.kind === 'bound') {
        await this.audit.record(
          {
            applicationId: null,
            actorUserId: user.id,
            action: 'upstream.bind',
            target: `upstream:${bound.identity.id}`,
            details: { provider: provider.id, subject: profile.subject },
            ip: browser.ip,
          },
          manager,
        );
      }
      return bound;
    });
    if (outcome.kind === 'taken') throw upstreamFailure('bound_elsewhere', provider.displayName);
    const clear = { name: 'upstream' as const, value: '', maxAge: 0 };
    if (attempt.request === undefined) {
      const back = BIND_RETURN_PAGES[attempt.returnTo ?? 'console'];
      return { status: 302, location: back, cookies: [clear] };
    }
    // Bound for a required-upstream request: continue it as the login would.
    const pending = await this.pending.findForPage(attempt.request, lang);
    if (!pending) throw requestGone();
    const application = await this.applications.findOneBy({ id: pending.request.applicationId });
    if (!application) throw requestGone();
    const next = await this.authorize.proceed(application, signedIn, pending.request, pending, 302);
    return { ...next, cookies: [...(next.cookies ?? []), clear] };
  }

  /** As POST /oauth2/login after a correct password: session, then consent or a code. */
  private async signIn(user: User, pending: Pending, browser: BrowserContext): Promise<PageResult> {
    const application = await this.applications.findOneBy({ id: pending.request.applicationId });
    if (!application) throw requestGone();
    const next = await this.authorize.signInAndProceed(
      application,
      user,
      'upstream',
      browser,
      pending,
      302,
    );
    return {
      ...next,
      cookies: [...(next.cookies ?? []), { name: 'upstream', value: '', maxAge: 0 }],
    };
  }

  private openAttempt(
    providerId: string,
    cookie: string | undefined,
    lang: PageLanguage,
  ): UpstreamAttempt {
    const attempt = this.sealer.open(cookie);
    const now = this.clock.now().getTime() / 1000;
    if (!attempt || attempt.exp <= now || attempt.providerId !== providerId) {
      throw upstreamFailure('no_attempt');
    }
    // The callback's pages speak the language of the request the attempt continues.
    this.pending.useLanguageOf(attempt.request, lang);
    return attempt;
  }

  /**
   * The provider, when it is configured, enabled and allowed by the request's
   * upstream_providers: a provider outside that list can neither start nor complete it.
   */
  private async allowedProvider(providerId: string, pending: Pending): Promise<UpstreamProvider> {
    const provider = await this.providers.find(providerId);
    if (!provider || !allowsProvider(pending.request.upstreamProviders, provider)) {
      throw upstreamFailure('not_offered');
    }
    if (pending.request.prompt === 'none') throw requestGone();
    return provider;
  }

  private startParams(provider: UpstreamProvider, attempt: UpstreamAttempt): StartParams {
    const callback = new URL(
      `/api/auth/upstream/${encodeURIComponent(provider.id)}/callback`,
      this.config.publicBaseUrl,
    );
    // DiscourseConnect has no `state`: its return_sso_url is ours to choose, so it carries it.
    if (provider.kind === 'discourse') callback.searchParams.set('state', attempt.state);
    return {
      state: attempt.state,
      nonce: attempt.nonce,
      codeVerifier: attempt.codeVerifier,
      redirectUri: callback.toString(),
    };
  }

  /** Single use: the first callback with this state records it; any later one is a replay. */
  private async spend(attempt: UpstreamAttempt): Promise<boolean> {
    const rows = await this.dataSource.query<unknown[]>(
      `INSERT INTO oauth_spent_authorization_requests (id, expires_at) VALUES ($1, $2)
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [sha256Hex(`upstream-state:${attempt.state}`), new Date(attempt.exp * 1000)],
    );
    return rows.length > 0;
  }

  /**
   * Provider failures become a page; the detail goes to the log, never to the browser.
   * `failed` runs first (a sign-in counts the failure in the metrics). The line names the id of
   * the HTTP request that met the failure (`requestId`).
   */
  private async guard<T>(
    requestId: string,
    call: () => Promise<T>,
    failed?: () => void,
  ): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      failed?.();
      this.logger.warn(
        { requestId },
        `Upstream sign-in failed (${error.reason}): ${error.message}`,
      );
      throw upstreamFailure(error.reason);
    }
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The callback's query as the kinds take it: single string values only. */
function stringsOf(query: Params): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (typeof value === 'string') result[name] = value;
  }
  return result;
}
