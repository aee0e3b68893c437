import { Injectable } from '@nestjs/common';
import { html } from '../../../common/http/html';
import type { Application } from '../../applications/application.entity';
import { cspSourceOf, type PageResult } from '../../pages/page-result';
import { type Params } from '../../../common/http/params';
import type { BrowserContext } from '../../sessions/cookies';
import type { CurrentSession } from '../../sessions/session.service';
import { StepUp, type StepUpRefusal } from '../step-up/step-up';
import { codeId, codePage, linkPage, mailNotSent, tooMany, WRONG_CODE } from '../account-pages';
import { PendingInteractions, type Interaction } from '../pending-interactions';
import { EmailVerificationService } from './email-verification.service';
import { verifyEmailPage, type AddressStepUp } from './verify-email.page';
import { BOLD, msg, type Text } from '../../../common/i18n/i18n';
import type { PageLanguage } from '../../../common/i18n/page-language';

export const VERIFY_EMAIL_PATH = '/oauth2/verify-email';
export const VERIFY_EMAIL_CODE_PATH = '/oauth2/verify-email/code';

/**
 * Email verification as a step of an authorization (docs/accounts.md, "Email verification"):
 * where the application requires a verified email and the signed-in user's is not, the
 * authorization sends the browser here instead of answering access_denied; once the code is
 * entered it continues as it would have.
 */
@Injectable()
export class VerifyEmailPages {
  constructor(
    private readonly interactions: PendingInteractions,
    private readonly verification: EmailVerificationService,
    private readonly stepUp: StepUp,
  ) {}

  /** GET /oauth2/verify-email: what the application needs, and "Send a code". */
  async show(requestId: unknown, lang: PageLanguage, browser: BrowserContext): Promise<PageResult> {
    const interaction = await this.interactions.find(requestId, lang);
    const signedIn = await this.interactions.signedIn(browser);
    if (!signedIn) return this.toLogin(interaction, 302);
    if (!needsVerification(interaction.application, signedIn.user)) {
      return this.interactions.continue(signedIn, interaction, 302);
    }
    return this.render(lang, interaction, signedIn, browser, 200);
  }

  /**
   * POST /oauth2/verify-email: emails a code to the account's address or, for an account without
   * one, to the address typed, once the step-up of a new address (StepUp.forAddress, the account
   * page's rule) is satisfied: refused, the page says why (a wrong password, or sign in again).
   */
  async send(body: Params, lang: PageLanguage, browser: BrowserContext): Promise<PageResult> {
    const interaction = await this.interactions.find(body.request, lang);
    this.interactions.checkForm(browser, interaction, body.csrf_token);
    const signedIn = await this.interactions.signedIn(browser);
    if (!signedIn) return this.toLogin(interaction, 303);
    const { user } = signedIn;
    if (!needsVerification(interaction.application, user)) {
      return this.interactions.continue(signedIn, interaction, 303);
    }
    // An account with an email verifies that one; an account without one names it here.
    const typed = typeof body.email === 'string' ? body.email.trim() : '';
    const render = (status: number, error: Text): PageResult =>
      this.render(lang, interaction, signedIn, browser, status, error, typed);
    if (user.email === '') {
      const refusal = await this.stepUp.forAddress(
        signedIn,
        typed,
        body.current_password,
        browser.ip,
      );
      if (refusal) return refused(render(refusal.status, refusal.message), refusal);
    }
    const outcome = await this.verification.send({
      userId: user.id,
      email: user.email !== '' ? user.email : typed,
      clientAddress: browser.ip,
      site: this.interactions.site,
      link: (id, code) => this.interactions.url(VERIFY_EMAIL_CODE_PATH, interaction, { id, code }),
      applicationName: interaction.application.name,
      locale: lang.locale,
    });
    switch (outcome.kind) {
      case 'sent':
        return {
          status: 303,
          location: this.interactions.path(VERIFY_EMAIL_CODE_PATH, interaction, { id: outcome.id }),
        };
      case 'invalid_email':
        return render(400, msg('verifyEmail.invalidEmail'));
      case 'throttled':
        return tooMany(lang, 'codes', outcome.retryAfterSeconds);
      case 'not_sent':
        throw mailNotSent();
    }
  }

  /** GET /oauth2/verify-email/code: the code form (the emailed link fills the code in). */
  async showCode(query: Params, lang: PageLanguage, browser: BrowserContext): Promise<PageResult> {
    const interaction = await this.interactions.find(query.request, lang);
    const signedIn = await this.interactions.signedIn(browser);
    if (!signedIn) return this.toLogin(interaction, 302);
    const code = typeof query.code === 'string' ? query.code.slice(0, 12) : undefined;
    return this.renderCode(lang, interaction, browser, 200, codeId(query.id), code);
  }

  /** POST /oauth2/verify-email/code: the right code verifies the address; the authorization goes on. */
  async confirm(body: Params, lang: PageLanguage, browser: BrowserContext): Promise<PageResult> {
    const interaction = await this.interactions.find(body.request, lang);
    this.interactions.checkForm(browser, interaction, body.csrf_token);
    const signedIn = await this.interactions.signedIn(browser);
    if (!signedIn) return this.toLogin(interaction, 303);
    const id = codeId(body.id);
    const outcome = await this.verification.confirm(signedIn.user.id, id, body.code);
    switch (outcome.kind) {
      case 'verified':
        return this.continueVerified(browser, interaction);
      case 'refused':
        return this.renderCode(lang, interaction, browser, 400, id, undefined, WRONG_CODE);
      case 'taken': {
        const { t } = lang.translator();
        return {
          status: 409,
          html: linkPage(lang, t('verifyEmail.addressInUseTitle'), t('verifyEmail.addressInUse'), {
            href: this.interactions.path(VERIFY_EMAIL_PATH, interaction),
            text: t('common.back'),
          }),
        };
      }
    }
  }

  private async continueVerified(
    browser: BrowserContext,
    interaction: Interaction,
  ): Promise<PageResult> {
    // Read again: the user now has the verified email the authorization checks.
    const signedIn = await this.interactions.signedIn(browser);
    if (!signedIn) return this.toLogin(interaction, 303);
    return this.interactions.continue(signedIn, interaction, 303);
  }

  private toLogin(interaction: Interaction, status: 302 | 303): PageResult {
    return { status, location: this.interactions.loginPath(interaction) };
  }

  private render(
    lang: PageLanguage,
    interaction: Interaction,
    signedIn: CurrentSession,
    browser: BrowserContext,
    status: number,
    error?: Text,
    typedEmail?: string,
  ): PageResult {
    const { user } = signedIn;
    const { token, cookies } = this.interactions.form(browser, interaction);
    const page = verifyEmailPage(lang, {
      applicationName: interaction.application.name,
      username: user.username,
      email: user.email,
      stepUp: user.email === '' ? this.addressStepUp(signedIn, interaction) : undefined,
      typedEmail,
      error,
      requestId: interaction.pending.sealed,
      csrfToken: token,
    });
    return { status, html: page, cookies };
  }

  /** The step-up the form of an account without an email asks for (StepUp.method). */
  private addressStepUp(signedIn: CurrentSession, interaction: Interaction): AddressStepUp {
    const method = this.stepUp.method(signedIn);
    if (method.kind === 'password') return method;
    // The login page of the same request: its new session comes back here within the window.
    return { ...method, signInUrl: this.interactions.loginPath(interaction) };
  }

  private renderCode(
    lang: PageLanguage,
    interaction: Interaction,
    browser: BrowserContext,
    status: number,
    id: string,
    code?: string,
    error?: Text,
  ): PageResult {
    const { token, cookies } = this.interactions.form(browser, interaction);
    const { t, rich } = lang.translator();
    const page = codePage(lang, {
      action: VERIFY_EMAIL_CODE_PATH,
      title: t('code.checkEmailTitle'),
      lead: html`<p>
        ${rich('verifyEmail.codeLead', { application: interaction.application.name }, BOLD)}
      </p>`,
      requestId: interaction.pending.sealed,
      csrfToken: token,
      id,
      code,
      error,
      again: {
        href: this.interactions.path(VERIFY_EMAIL_PATH, interaction),
        text: t('verifyEmail.sendNewCode'),
      },
    });
    // The form may lead straight on to the client (CSP form-action follows redirects).
    const formTarget = cspSourceOf(interaction.pending.request.redirectUri);
    return { status, html: page, cookies, formTarget };
  }
}

/** A page refused by the step-up, with its Retry-After when the password check was throttled. */
function refused(page: PageResult, refusal: StepUpRefusal): PageResult {
  return refusal.retryAfterSeconds === undefined
    ? page
    : { ...page, retryAfterSeconds: refusal.retryAfterSeconds };
}

/** The application requires a verified email and the user's is not (check-user-access.ts). */
function needsVerification(application: Application, user: CurrentSession['user']): boolean {
  return application.requireVerifiedEmail && !user.emailVerified;
}
