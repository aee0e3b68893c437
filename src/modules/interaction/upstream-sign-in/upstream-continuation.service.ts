import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Application } from '../../applications/application.entity';
import { AuthorizeService, requestGone } from '../../oauth/authorize/authorize.service';
import {
  PendingAuthorizationsService,
  type Pending,
} from '../../oauth/authorize/pending-authorizations.service';
import type { PageResult } from '../../pages/page-result';
import type { BrowserContext } from '../../sessions/cookies';
import type { CurrentSession } from '../../sessions/session.service';
import type { User } from '../../users/user.entity';
import type { PageLanguage } from '../../../common/i18n/page-language';

/** The answer that ends a trip also clears its attempt cookie. */
const CLEAR_ATTEMPT = { name: 'upstream' as const, value: '', maxAge: 0 };

/**
 * What a finished trip leads to when it continues an authorization request: the request goes
 * on exactly as after POST /oauth2/login (consent page, or a code at once), and the attempt
 * cookie is cleared.
 */
@Injectable()
export class UpstreamContinuation {
  constructor(
    @InjectRepository(Application) private readonly applications: Repository<Application>,
    private readonly pending: PendingAuthorizationsService,
    private readonly authorize: AuthorizeService,
  ) {}

  /** As POST /oauth2/login after a correct password: session, then consent or a code. */
  async signIn(user: User, pending: Pending, browser: BrowserContext): Promise<PageResult> {
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
    return { ...next, cookies: [...(next.cookies ?? []), CLEAR_ATTEMPT] };
  }

  /**
   * After a binding: back to the account page it started from, or, bound for a required-upstream
   * request (`sealedRequest`), that request continued for the signed-in user as the login would.
   */
  async afterBind(
    signedIn: CurrentSession,
    sealedRequest: string | undefined,
    back: string,
    lang: PageLanguage,
  ): Promise<PageResult> {
    if (sealedRequest === undefined) {
      return { status: 302, location: back, cookies: [CLEAR_ATTEMPT] };
    }
    const pending = await this.pending.findForPage(sealedRequest, lang);
    if (!pending) throw requestGone();
    const application = await this.applications.findOneBy({ id: pending.request.applicationId });
    if (!application) throw requestGone();
    const next = await this.authorize.proceed(application, signedIn, pending.request, pending, 302);
    return { ...next, cookies: [...(next.cookies ?? []), CLEAR_ATTEMPT] };
  }
}
