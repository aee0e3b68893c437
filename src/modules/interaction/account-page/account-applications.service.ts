import { Injectable } from '@nestjs/common';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { msg } from '../../../common/i18n/i18n';
import { positiveIntId } from '../../../common/validation/path-ids';
import { ApplicationsService } from '../../applications/applications.service';
import { PageError } from '../../pages/page-error';
import type { PageResult } from '../../pages/page-result';
import { type Params } from '../../../common/http/params';
import type { BrowserContext } from '../../sessions/cookies';
import { AppUsersService } from '../../users/app-users.service';
import { AccountFormsService, done } from './account-forms.service';
import type { AuthorizedApplicationRow } from './pages/account.page';

/**
 * The account page's "Applications" section: the applications the user has a live grant for,
 * and revoking one's access.
 */
@Injectable()
export class AccountApplicationsService {
  constructor(
    private readonly forms: AccountFormsService,
    private readonly appUsers: AppUsersService,
    private readonly applications: ApplicationsService,
  ) {}

  /**
   * POST /account/applications/:applicationId/revoke: what the application API's POST
   * /users/:userId/revoke does (AppUsersService.revoke: tokens revoked, consent forgotten,
   * events), for an application the user has a live grant for; any other id is 404.
   */
  async revoke(rawId: string, form: Params, browser: BrowserContext): Promise<PageResult> {
    return this.forms.withSession(browser, form, 'revoke', async ({ user }) => {
      // Application ids are positive integers (applications.id is a serial: a 32-bit integer).
      const applicationId = positiveIntId(rawId);
      if (applicationId === null) throw notAuthorized();
      await this.appUsers
        .revoke(applicationId, user.id, { source: 'account_page', grantedOnly: true })
        .catch((error: unknown) => {
          if (error instanceof AppError && error.code === ErrorCode.UserNotFound) {
            throw notAuthorized();
          }
          throw error;
        });
      return done('revoked');
    });
  }

  /** The applications with a live grant of the user, with their names and logos. */
  async authorizedApplications(userId: string): Promise<AuthorizedApplicationRow[]> {
    const grants = await this.appUsers.liveGrantsOf(userId);
    const byId = new Map(
      (await this.applications.findByIds(grants.map((grant) => grant.applicationId))).map(
        (application) => [application.id, application],
      ),
    );
    return grants.flatMap((grant) => {
      const application = byId.get(grant.applicationId);
      if (!application) return [];
      return [
        {
          id: application.id,
          name: application.name,
          logo: application.logo,
          scope: grant.grantedScope,
          lastUsedAt: grant.lastUsedAt,
        },
      ];
    });
  }
}

function notAuthorized(): PageError {
  return new PageError(404, msg('errors.notFoundTitle'), msg('account.applications.notAuthorized'));
}
