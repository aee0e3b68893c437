import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { msg, type Text } from '../../../common/i18n/i18n';
import type { PageLanguage } from '../../../common/i18n/page-language';
import { AppConfig } from '../../../config/app-config';
import { AuditLog } from '../../audit/audit-log.service';
import type { PageResult } from '../../pages/page-result';
import { formText, type Params } from '../../../common/http/params';
import type { BrowserContext } from '../../sessions/cookies';
import { SessionService } from '../../sessions/session.service';
import { hashPassword } from '../../users/password';
import { passwordWeakness } from '../../users/password-policy';
import { UsersService } from '../../users/users.service';
import { passwordProblemText } from '../account-pages';
import { StepUp } from '../step-up/step-up';
import { AccountFormsService, done } from './account-forms.service';
import { AccountViewService } from './account-view.service';

/** The account page's "Password" form: changing the password, or setting a first one. */
@Injectable()
export class AccountPasswordService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly forms: AccountFormsService,
    private readonly view: AccountViewService,
    private readonly sessions: SessionService,
    private readonly users: UsersService,
    private readonly audit: AuditLog,
    private readonly stepUp: StepUp,
  ) {}

  /**
   * POST /account/password: the new password twice, then the current one through the login's
   * throttled check (a wrong one counts as a failed sign-in); an account without a password
   * may set one within 5 minutes of a primary sign-in instead. The new hash, the end of the
   * user's other sessions and the audit entry commit together.
   */
  async changePassword(
    form: Params,
    lang: PageLanguage,
    browser: BrowserContext,
  ): Promise<PageResult> {
    return this.forms.withSession(browser, form, 'password', async (current) => {
      const { user, session } = current;
      const refuse = (status: number, passwordError: Text): Promise<PageResult> =>
        this.view.render(lang, current, browser, status, { passwordError });
      const newPassword = formText(form.new_password);
      if (newPassword !== formText(form.repeat_password)) {
        return refuse(400, msg('account.password.differ'));
      }
      const weakness = await passwordWeakness(newPassword, user);
      if (weakness) return refuse(400, passwordProblemText(weakness));
      const stepUp = await this.stepUp.check(
        current,
        form.current_password,
        browser.ip,
        'password',
      );
      if (stepUp) {
        const page = await refuse(stepUp.status, stepUp.message);
        return { ...page, retryAfterSeconds: stepUp.retryAfterSeconds };
      }
      const hash = await hashPassword(newPassword, this.config.passwordHashCost);
      await this.dataSource.transaction(async (manager) => {
        await this.users.setPasswordHash(manager, user.id, hash);
        const sessionsEnded = await this.sessions.endOthers(manager, user.id, session.id);
        await this.audit.record(
          {
            applicationId: null,
            actorUserId: user.id,
            action: 'user.password_change',
            target: `user:${user.id}`,
            details: {
              via: 'account_page',
              firstPassword: user.passwordHash === null,
              sessionsEnded,
            },
            ip: browser.ip,
          },
          manager,
        );
      });
      return done('password');
    });
  }
}
