import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Metrics } from '../../../common/metrics/metrics';
import { AuditLog } from '../../audit/audit-log.service';
import type { PageResult } from '../../pages/page-result';
import { type Params } from '../../../common/http/params';
import type { BrowserContext } from '../../sessions/cookies';
import { SessionService } from '../../sessions/session.service';
import { UpstreamIdentitiesService } from '../../upstreams/identities/upstream-identities.service';
import { BIND_RETURN_PAGES, type UpstreamAttempt } from './upstream-attempt';
import { UpstreamContinuation } from './upstream-continuation.service';
import { upstreamFailure } from './upstream-pages';
import { accountOf, UpstreamTrips } from './upstream-trips.service';
import type { PageLanguage } from '../../../common/i18n/page-language';

/**
 * The end of a binding trip (docs/upstreams.md): the callback must come with the session of the
 * user who started it; the provider's account is bound to that user (never linked by address),
 * recorded in the audit log, then the browser returns to its account page or the
 * required-upstream request continues.
 */
@Injectable()
export class UpstreamBindingService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sessions: SessionService,
    private readonly trips: UpstreamTrips,
    private readonly identities: UpstreamIdentitiesService,
    private readonly audit: AuditLog,
    private readonly metrics: Metrics,
    private readonly continuation: UpstreamContinuation,
  ) {}

  /** The provider's answer to a bind `attempt`, already spent by the callback. */
  async finish(
    attempt: UpstreamAttempt,
    query: Params,
    lang: PageLanguage,
    browser: BrowserContext,
    requestId: string,
  ): Promise<PageResult> {
    const signedIn = await this.sessions.current(browser.sessionCookie);
    if (!signedIn || signedIn.user.id !== attempt.userId) throw upstreamFailure('no_attempt');
    const { user } = signedIn;
    const provider = await this.trips.find(attempt.providerId);
    if (!provider) throw upstreamFailure('not_offered');
    const method = `upstream:${provider.kind}` as const;
    const profile = await this.trips.exchange(provider, query, attempt, requestId, () =>
      this.metrics.login(method, 'upstream_error'),
    );
    // The binding and its audit record commit together.
    const outcome = await this.dataSource.transaction(async (manager) => {
      const bound = await this.identities.bind(user.id, accountOf(provider, profile), manager);
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
    const back = BIND_RETURN_PAGES[attempt.returnTo ?? 'console'];
    return this.continuation.afterBind(signedIn, attempt.request, back, lang);
  }
}
