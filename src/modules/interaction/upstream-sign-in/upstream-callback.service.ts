import { PendingInteractions } from '../pending-interactions';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { sha256Hex } from '../../../common/crypto/hash';
import { Metrics } from '../../../common/metrics/metrics';
import type { PageResult } from '../../pages/page-result';
import { type Params } from '../../../common/http/params';
import type { BrowserContext } from '../../sessions/cookies';
import { UpstreamIdentitiesService } from '../../upstreams/identities/upstream-identities.service';
import type { UpstreamAttempt } from './upstream-attempt';
import { UpstreamBindingService } from './upstream-binding.service';
import { UpstreamContinuation } from './upstream-continuation.service';
import { upstreamFailure } from './upstream-pages';
import { accountOf, UpstreamTrips } from './upstream-trips.service';
import type { PageLanguage } from '../../../common/i18n/page-language';

/**
 * Upstream callbacks that record a spent state (one oauth_spent_authorization_requests row
 * each) allowed per client address per 15 minutes (docs/security.md, "Anonymous requests that
 * keep state"); the start writes nothing (its attempt travels sealed in a cookie). The limit of
 * the 'upstream-callback' throttler on the callback route.
 */
export const CALLBACKS_PER_ADDRESS = 60;

/**
 * GET /api/auth/upstream/{providerId}/callback after UpstreamCallbackGuard has matched the
 * answer's state to the sealed attempt: the attempt is spent (single use), then a binding goes
 * to UpstreamBindingService, and a sign-in has the provider kind complete the exchange, finds
 * or creates the user (never linking by address) and continues the authorization request
 * exactly as POST /oauth2/login does.
 */
@Injectable()
export class UpstreamCallbackService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly trips: UpstreamTrips,
    private readonly interactions: PendingInteractions,
    private readonly identities: UpstreamIdentitiesService,
    private readonly metrics: Metrics,
    private readonly continuation: UpstreamContinuation,
    private readonly binding: UpstreamBindingService,
  ) {}

  /** The provider's answer to `attempt`; `requestId` names the request in the failure log. */
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
      return this.binding.finish(attempt, query, lang, browser, requestId);
    }
    const pending = await this.interactions.pendingFor(attempt.request, lang);
    const provider = await this.trips.allowedProvider(providerId, pending);
    const method = `upstream:${provider.kind}` as const;
    const profile = await this.trips.exchange(provider, query, attempt, requestId, () =>
      this.metrics.login(method, 'upstream_error'),
    );
    const outcome = await this.identities.signIn(accountOf(provider, profile));
    if (outcome.kind === 'email_taken') {
      this.metrics.login(method, 'email_taken');
      throw upstreamFailure('email_taken', provider.displayName);
    }
    this.metrics.login(method, 'success');
    return this.continuation.signIn(outcome.user, pending, browser);
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
}
