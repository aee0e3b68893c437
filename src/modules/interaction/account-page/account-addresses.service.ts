import { Injectable } from '@nestjs/common';
import { msg, type Text } from '../../../common/i18n/i18n';
import type { PageLanguage } from '../../../common/i18n/page-language';
import type { PageResult } from '../../pages/page-result';
import { formText, type Params } from '../../../common/http/params';
import type { BrowserContext } from '../../sessions/cookies';
import { Csrf } from '../../sessions/csrf';
import { SessionService } from '../../sessions/session.service';
import { StepUp } from '../step-up/step-up';
import { AccountEmails, CONFIRM_EMAIL_PATH } from './account-emails';
import { AccountFormsService, done, LOGIN_PAGE } from './account-forms.service';
import { AccountViewService } from './account-view.service';
import { confirmEmailPage } from './pages/confirm-email.page';

/** Emailed codes are six digits; anything else in the link is not put in the form. */
const CODE_IN_LINK = /^[0-9]{6}$/;

/**
 * The account page's "Email addresses" section: "Send a verification code" (to an unverified
 * address of the user, or to a new one) and the page to enter the code. The rules of an
 * address are AccountEmails'; this service answers the forms.
 */
@Injectable()
export class AccountAddressesService {
  constructor(
    private readonly forms: AccountFormsService,
    private readonly view: AccountViewService,
    private readonly sessions: SessionService,
    private readonly csrf: Csrf,
    private readonly emails: AccountEmails,
    private readonly stepUp: StepUp,
  ) {}

  /**
   * POST /account/emails/code: emails a verification code to an unverified address of the user,
   * or to a new one, then shows the form to enter it; a refusal shows the page again.
   */
  async sendEmailCode(
    form: Params,
    lang: PageLanguage,
    browser: BrowserContext,
  ): Promise<PageResult> {
    return this.forms.withSession(browser, form, 'email_code', async (current) => {
      const typed = formText(form.email);
      const refuse = (status: number, error: Text): Promise<PageResult> =>
        this.view.render(lang, current, browser, status, { email: { error, typed } });
      // A new address needs the step-up (StepUp.forAddress, shared with /oauth2/verify-email).
      const stepUp = await this.stepUp.forAddress(
        current,
        typed,
        form.current_password,
        browser.ip,
      );
      if (stepUp) {
        const page = await refuse(stepUp.status, stepUp.message);
        return { ...page, retryAfterSeconds: stepUp.retryAfterSeconds };
      }
      const sent = await this.emails.sendCode(current.user, typed, browser.ip, lang.locale);
      switch (sent.kind) {
        case 'sent':
          return { status: 303, location: `${CONFIRM_EMAIL_PATH}?id=${sent.id}` };
        case 'refused':
          return refuse(400, sent.message);
        case 'throttled':
          return {
            ...(await refuse(429, msg('account.emails.throttled'))),
            retryAfterSeconds: sent.retryAfterSeconds,
          };
        case 'not_sent':
          return refuse(503, msg('account.emails.notSent'));
      }
    });
  }

  /** GET /account/emails/confirm: the code form (the code filled in from the emailed link). */
  async showConfirmEmail(
    lang: PageLanguage,
    browser: BrowserContext,
    id: unknown,
    code: unknown,
  ): Promise<PageResult> {
    if (!(await this.sessions.current(browser.sessionCookie))) {
      return { status: 302, location: LOGIN_PAGE };
    }
    const filled = typeof code === 'string' && CODE_IN_LINK.test(code) ? code : '';
    return this.renderConfirmEmail(lang, browser, 200, formText(id), filled);
  }

  /**
   * POST /account/emails/confirm: a right code of this user's makes the address a verified one
   * of theirs (OneTimeCodes: every try counts, five wrong ones spend the code).
   */
  async confirmEmail(
    form: Params,
    lang: PageLanguage,
    browser: BrowserContext,
  ): Promise<PageResult> {
    return this.forms.withSession(browser, form, 'email_confirm', async ({ user }) => {
      const outcome = await this.emails.confirm(user, form.id, form.code);
      const again = (status: number, error: Text): PageResult =>
        this.renderConfirmEmail(lang, browser, status, formText(form.id), '', error);
      switch (outcome.kind) {
        case 'verified':
          return done('email_verified');
        case 'refused':
          return again(400, msg('account.confirmEmail.wrong'));
        case 'taken':
          return again(409, msg('account.confirmEmail.taken'));
      }
    });
  }

  private renderConfirmEmail(
    lang: PageLanguage,
    browser: BrowserContext,
    status: number,
    id: string,
    code: string,
    error?: Text,
  ): PageResult {
    const { token, cookies } = this.csrf.issue(browser, 'account:email_confirm');
    return { status, html: confirmEmailPage(lang, { csrfToken: token, id, code, error }), cookies };
  }
}
