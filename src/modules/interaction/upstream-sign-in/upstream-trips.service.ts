import { PendingInteractions } from '../pending-interactions';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import { Clock } from '../../../common/clock';
import { newOpaqueToken } from '../../../common/crypto/opaque-token';
import { AppConfig } from '../../../config/app-config';
import { requestGone } from '../../oauth/authorize/authorize.service';
import { type Pending } from '../../oauth/authorize/pending-authorizations.service';
import { allowsProvider } from '../../oauth/authorize/checks/upstream-providers';
import type { PageResult } from '../../pages/page-result';
import { type Params } from '../../../common/http/params';
import {
  UpstreamError,
  type StartParams,
  type UpstreamProfile,
  type UpstreamProvider,
} from '../../upstreams/providers/upstream-provider';
import { UpstreamProvidersService } from '../../upstreams/providers/upstream-providers.service';
import type { UpstreamAccount } from '../../upstreams/identities/upstream-identities.service';
import { ATTEMPT_TTL_SECONDS, AttemptSealer, type UpstreamAttempt } from './upstream-attempt';
import { upstreamFailure } from './upstream-pages';
import type { PageLanguage } from '../../../common/i18n/page-language';

/**
 * One trip to an upstream provider (docs/upstreams.md), the part every flow shares: leaving
 * with fresh state, nonce and PKCE verifier sealed in the `upstream` cookie; the answer's
 * attempt opened and its state checked; the code exchanged and the profile read. Provider
 * failures become a page, their detail goes to the log.
 */
@Injectable()
export class UpstreamTrips {
  private readonly logger = new Logger(UpstreamTrips.name);
  private readonly sealer: AttemptSealer;

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly providers: UpstreamProvidersService,
    private readonly interactions: PendingInteractions,
    private readonly clock: Clock,
  ) {
    this.sealer = new AttemptSealer(config.sessionSecret);
  }

  /** The provider when it is configured and enabled, else null. */
  find(providerId: string): Promise<UpstreamProvider | null> {
    return this.providers.find(providerId);
  }

  /**
   * The provider, when it is configured, enabled and allowed by the request's
   * upstream_providers: a provider outside that list can neither start nor complete it.
   */
  async allowedProvider(providerId: string, pending: Pending): Promise<UpstreamProvider> {
    const provider = await this.providers.find(providerId);
    if (!provider || !allowsProvider(pending.request.upstreamProviders, provider)) {
      throw upstreamFailure('not_offered');
    }
    if (pending.request.prompt === 'none') throw requestGone();
    return provider;
  }

  /**
   * A new trip to `provider`: fresh state, nonce and PKCE verifier, valid for the attempt's TTL,
   * sealed in the `upstream` cookie of the redirect to the provider. `requestId` is the id of
   * the HTTP request it serves (X-Request-Id), to name in the log line of a provider failure.
   */
  async depart(
    provider: UpstreamProvider,
    trip: Pick<UpstreamAttempt, 'purpose' | 'request' | 'userId' | 'returnTo'>,
    requestId: string,
  ): Promise<PageResult> {
    const attempt: UpstreamAttempt = {
      ...trip,
      providerId: provider.id,
      state: newOpaqueToken(),
      nonce: newOpaqueToken(),
      codeVerifier: newOpaqueToken(),
      exp: Math.floor(this.clock.now().getTime() / 1000) + ATTEMPT_TTL_SECONDS,
    };
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
    const attempt = this.sealer.open(attemptCookie);
    const now = this.clock.now().getTime() / 1000;
    if (!attempt || attempt.exp <= now || attempt.providerId !== providerId) {
      throw upstreamFailure('no_attempt');
    }
    // The callback's pages speak the language of the request the attempt continues.
    this.interactions.useLanguageOf(attempt.request, lang);
    const answered = typeof query.state === 'string' ? query.state : '';
    if (!sameSecret(answered, attempt.state)) throw upstreamFailure('invalid_state');
    return attempt;
  }

  /**
   * The provider's answer to `attempt` completed by its kind (code exchange with the PKCE
   * verifier, nonce check): the profile. `failed` runs first on a provider failure (a sign-in
   * counts it in the metrics).
   */
  exchange(
    provider: UpstreamProvider,
    query: Params,
    attempt: UpstreamAttempt,
    requestId: string,
    failed: () => void,
  ): Promise<UpstreamProfile> {
    const callbackQuery = stringsOf(query);
    return this.guard(
      requestId,
      () => this.providers.complete(provider, callbackQuery, this.startParams(provider, attempt)),
      failed,
    );
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

  /**
   * Provider failures become a page; the detail goes to the log, never to the browser.
   * `failed` runs first. The line names the id of the HTTP request that met the failure
   * (`requestId`).
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

/** The provider's profile as the identities service takes it (find-or-create, bind). */
export function accountOf(provider: UpstreamProvider, profile: UpstreamProfile): UpstreamAccount {
  return {
    providerId: provider.id,
    subject: profile.subject,
    profile: {
      username: profile.username,
      email: profile.email,
      emailVerified: profile.emailVerified,
      avatar: profile.avatar,
      providerData: profile.providerData,
    },
  };
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
