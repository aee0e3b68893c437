import { Injectable } from '@nestjs/common';
import type { PageLanguage } from '../../../common/i18n/page-language';
import type { PageResult } from '../../pages/page-result';
import { type Params } from '../../../common/http/params';
import type { BrowserContext } from '../../sessions/cookies';
import { answerFloor, floorStart } from '../answer-floor';
import { tooMany } from '../account-pages';
import { PendingInteractions } from '../pending-interactions';
import type { SignUpPayload } from './sign-up-accounts';
import { SignUpAttempts } from './sign-up-attempts';
import { SignUpBrowser } from './sign-up-browser';
import { readForm, SignUpChecks } from './sign-up-checks';
import { SignUpMail } from './sign-up-mail';
import { SignUpOffer } from './sign-up-offer';
import { busy, SignUpViews } from './sign-up-views';
import { SIGN_UP_CODE_PATH } from './sign-up.pages';

/**
 * The sign-up form (docs/accounts.md, "Sign-up"), verify-first: it makes no account, it sends a
 * code to a new address or a notice to an address that has an account, and answers both alike
 * (the same redirect, the same cookie binding the id to this browser, the same floor), so the
 * form never tells whether an address has an account.
 */
@Injectable()
export class SignUpFormService {
  constructor(
    private readonly interactions: PendingInteractions,
    private readonly offer: SignUpOffer,
    private readonly attempts: SignUpAttempts,
    private readonly checks: SignUpChecks,
    private readonly mail: SignUpMail,
    private readonly browsers: SignUpBrowser,
    private readonly views: SignUpViews,
  ) {}

  /** GET /oauth2/signup: the form. */
  async showForm(
    requestId: unknown,
    lang: PageLanguage,
    browser: BrowserContext,
  ): Promise<PageResult> {
    const interaction = await this.offer.offered(requestId, lang);
    return this.views.form(lang, interaction, browser, 200);
  }

  /**
   * POST /oauth2/signup: checks the form, then emails a code (new address) or a notice (an
   * address with an account) and answers both with the same redirect to the code page and the
   * same cookie binding the code (or the decoy id) to this browser.
   */
  async submitForm(body: Params, lang: PageLanguage, browser: BrowserContext): Promise<PageResult> {
    const interaction = await this.offer.offered(body.request, lang);
    this.interactions.checkForm(browser, interaction, body.csrf_token);
    const attempt = await this.attempts.take(browser.ip);
    if (attempt.kind === 'throttled') return tooMany(lang, 'sign-ups', attempt.retryAfterSeconds);
    const form = readForm(body);
    const checked = await this.checks.check(form);
    if (checked.kind === 'refused') {
      return this.views.form(lang, interaction, browser, checked.status, checked.error, form);
    }
    const { email } = checked;
    const held = await this.checks.held(email);
    // Hashed in both cases, so the two answers cost the same.
    const passwordHash = await this.checks.hash(form.password, browser.ip);
    if (passwordHash === null) return busy(lang);
    const payload: SignUpPayload = { username: form.username, passwordHash };
    // Writing a code costs a few milliseconds the notice does not: both answers are held to the
    // same floor, so their timing tells nothing either (docs/accounts.md, "Sign-up").
    const started = floorStart();
    const sent = held
      ? await this.mail.sendNotice(interaction, email, browser.ip, lang.locale)
      : await this.mail.sendCode(interaction, email, payload, browser.ip, lang.locale);
    await answerFloor(started);
    if (sent.kind === 'throttled') return tooMany(lang, 'codes', sent.retryAfterSeconds);
    return {
      status: 303,
      location: this.interactions.path(SIGN_UP_CODE_PATH, interaction, { id: sent.id }),
      cookies: this.browsers.cookiesFor(browser, sent.id),
    };
  }
}
