import { PendingInteractions } from '../pending-interactions';
import { Injectable } from '@nestjs/common';
import { AuthorizeService } from '../../oauth/authorize/authorize.service';
import { type Pending } from '../../oauth/authorize/pending-authorizations.service';
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
    private readonly interactions: PendingInteractions,
    private readonly authorize: AuthorizeService,
  ) {}

  /** As POST /oauth2/login after a correct password: session, then consent or a code. */
  async signIn(user: User, pending: Pending, browser: BrowserContext): Promise<PageResult> {
    const application = await this.interactions.applicationOf(pending);
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
    const interaction = await this.interactions.find(sealedRequest, lang);
    const next = await this.interactions.continue(signedIn, interaction, 302);
    return { ...next, cookies: [...(next.cookies ?? []), CLEAR_ATTEMPT] };
  }
}
