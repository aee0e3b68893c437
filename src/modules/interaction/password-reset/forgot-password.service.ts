import { PendingInteractions } from '../pending-interactions';
import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { offeredSignIn } from '../../oauth/authorize/checks/upstream-providers';
import { type Pending } from '../../oauth/authorize/pending-authorizations.service';
import { formExpired, PageError } from '../../pages/page-error';
import type { PageResult } from '../../pages/page-result';
import { type Params } from '../../../common/http/params';
import type { BrowserContext } from '../../sessions/cookies';
import { Csrf } from '../../sessions/csrf';
import { UpstreamProvidersService } from '../../upstreams/providers/upstream-providers.service';
import { AccountRecovery } from '../../users/account-recovery';
import { codeMail } from '../one-time-codes/code-mail';
import { OneTimeCodes } from '../one-time-codes/one-time-codes.service';
import { answerFloor, floorStart } from '../answer-floor';
import { MailAfterAnswer } from './mail-after-answer';
import { forgotPasswordPage } from './password-reset.pages';
import { askedHereCookie } from './reset-browser';
import { pathWith, RESET_PASSWORD_PATH, signInPath } from './reset-links';
import { msg, type Text } from '../../../common/i18n/i18n';
import type { PageLanguage } from '../../../common/i18n/page-language';

/** The CSRF purpose of the forgot-password form shown without an authorization request. */
export const FORGOT_PASSWORD_PURPOSE = 'password-reset';

const MAX_EMAIL_LENGTH = 254;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/**
 * "Forgot your password?" (docs/accounts.md, "Password reset"): asks for an address and, when
 * an account uses it, emails a `password_reset` code. Every answer is the same whether or not
 * the address has an account: the same redirect to the reset page (with a decoy id when it has
 * none), the same limits, the same time (no email in the request, it leaves after the answer;
 * no answer before ANSWER_FLOOR_MS).
 */
@Injectable()
export class ForgotPasswordService {
  private readonly site: string;

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly accounts: AccountRecovery,
    private readonly codes: OneTimeCodes,
    private readonly mail: MailAfterAnswer,
    private readonly csrf: Csrf,
    private readonly interactions: PendingInteractions,
    private readonly upstreamProviders: UpstreamProvidersService,
  ) {
    this.site = new URL(config.publicBaseUrl).host;
  }

  async show(request: unknown, lang: PageLanguage, browser: BrowserContext): Promise<PageResult> {
    return this.render(lang, await this.requestOf(request, lang), browser, 200);
  }

  async submit(body: Params, lang: PageLanguage, browser: BrowserContext): Promise<PageResult> {
    const pending = await this.requestOf(body.request, lang);
    if (!this.csrf.verify(browser, pending?.id ?? FORGOT_PASSWORD_PURPOSE, body.csrf_token)) {
      throw formExpired();
    }
    const email = typeof body.email === 'string' ? body.email.trim() : '';
    if (email.length > MAX_EMAIL_LENGTH || !EMAIL.test(email)) {
      return this.render(lang, pending, browser, 400, msg('passwordReset.enterEmail'), email);
    }
    const started = floorStart();
    // The code goes to the address as the account stores it, never as typed (docs/accounts.md,
    // "Addresses"): a look-alike of an address reaches its account's own mailbox, not the typed one.
    const owner = await this.accounts.findByAddress(email);
    const outcome = owner
      ? await this.codes.issue({
          purpose: 'password_reset',
          email: owner.email,
          userId: owner.userId,
          clientAddress: browser.ip,
        })
      : await this.codes.decoy(email, browser.ip);
    await answerFloor(started);
    if (outcome.kind === 'throttled') {
      const minutes = Math.max(1, Math.ceil(outcome.retryAfterSeconds / 60));
      const message = msg('passwordReset.tooManyCodes', { minutes });
      const page = this.render(lang, pending, browser, 429, message, email);
      return { ...page, retryAfterSeconds: outcome.retryAfterSeconds };
    }
    if (outcome.kind === 'issued' && owner) {
      const link = new URL(
        pathWith(RESET_PASSWORD_PATH, {
          id: outcome.id,
          code: outcome.code,
          request: pending?.sealed,
        }),
        this.config.publicBaseUrl,
      );
      this.mail.send(
        codeMail('password_reset', {
          to: owner.email,
          locale: lang.locale,
          site: this.site,
          code: outcome.code,
          link: link.href,
        }),
      );
    }
    return {
      status: 303,
      location: pathWith(RESET_PASSWORD_PATH, { id: outcome.id, request: pending?.sealed }),
      cookies: askedHereCookie(this.csrf, browser, outcome.id, pending?.sealed),
    };
  }

  private render(
    lang: PageLanguage,
    pending: Pending | null,
    browser: BrowserContext,
    status: number,
    error?: Text,
    email?: string,
  ): PageResult {
    const { token, cookies } = this.csrf.issue(browser, pending?.id ?? FORGOT_PASSWORD_PURPOSE);
    const html = forgotPasswordPage(lang, {
      requestId: pending?.sealed,
      csrfToken: token,
      signInUrl: signInPath(pending?.sealed),
      email,
      error,
    });
    return { status, html, cookies };
  }

  /**
   * The authorization request the person came from, or null without one. A request that is not
   * ours, has expired or does not offer the password form is refused, as the login page would.
   */
  private async requestOf(value: unknown, lang: PageLanguage): Promise<Pending | null> {
    if (value === undefined || value === '') return null;
    const pending = await this.interactions.pendingFor(value, lang);
    const offered = offeredSignIn(
      pending.request.upstreamProviders,
      await this.upstreamProviders.listEnabled(),
    );
    if (!offered.password) {
      throw new PageError(
        400,
        msg('errors.passwordNotOfferedTitle'),
        msg('errors.passwordNotOffered'),
      );
    }
    return pending;
  }
}

/** A form posted without this browser's token for it (docs/security.md, "Cookies and CSRF"). */
