import { Injectable } from '@nestjs/common';
import type { PageLanguage } from '../../../common/i18n/page-language';
import type { PageResult } from '../../pages/page-result';
import { type Params } from '../../../common/http/params';
import type { BrowserContext } from '../../sessions/cookies';
import { sessionCookie, SessionService } from '../../sessions/session.service';
import type { User } from '../../users/user.entity';
import { answerFloor, floorStart } from '../answer-floor';
import { codeId, linkPage, WRONG_CODE } from '../account-pages';
import { PendingInteractions } from '../pending-interactions';
import { SignUpAccounts } from './sign-up-accounts';
import { SignUpBrowser } from './sign-up-browser';
import { SignUpOffer } from './sign-up-offer';
import { codeFormPurpose, otherBrowser, SignUpViews } from './sign-up-views';

/**
 * The sign-up code page (docs/accounts.md, "Sign-up"): the account is made only when the code
 * emailed to the address is entered, in the browser that submitted the form (SignUpBrowser), so
 * the owner of an address never finishes a sign-up someone else started with it.
 */
@Injectable()
export class SignUpCodeService {
  constructor(
    private readonly interactions: PendingInteractions,
    private readonly offer: SignUpOffer,
    private readonly browsers: SignUpBrowser,
    private readonly accounts: SignUpAccounts,
    private readonly sessions: SessionService,
    private readonly views: SignUpViews,
  ) {}

  /**
   * GET /oauth2/signup/verify: the code form (the emailed link fills the code in), in the browser
   * that submitted the form; any other browser is only told to enter the code there, with no
   * form and without the code.
   */
  async showCode(query: Params, lang: PageLanguage, browser: BrowserContext): Promise<PageResult> {
    const interaction = await this.offer.offeredOrExpired(query.request, lang);
    const id = codeId(query.id);
    if (!this.browsers.started(browser, id)) return otherBrowser(lang, 200);
    const code = typeof query.code === 'string' ? query.code.slice(0, 12) : undefined;
    return this.views.code(lang, interaction, browser, 200, id, code);
  }

  /**
   * POST /oauth2/signup/verify: the right code, from the browser that submitted the form, creates
   * the account in the transaction that spends the code, and signs the person in; the
   * authorization then continues as after a login. Another browser's try is refused before the
   * code is looked at (it neither counts nor spends it).
   */
  async submitCode(body: Params, lang: PageLanguage, browser: BrowserContext): Promise<PageResult> {
    const interaction = await this.offer.offeredOrExpired(body.request, lang);
    const id = codeId(body.id);
    this.interactions.checkFormFor(browser, codeFormPurpose(id), body.csrf_token);
    // Every refusal answers after the same floor as the reset page's: a wrong try writes on a
    // real code, nothing on a decoy id, and another browser's is refused before any look-up.
    const started = floorStart();
    if (!this.browsers.started(browser, id)) {
      await answerFloor(started);
      return otherBrowser(lang, 400);
    }
    const outcome = await this.accounts.create(id, body.code, browser.ip);
    if (outcome.kind === 'refused') {
      await answerFloor(started);
      return this.views.code(lang, interaction, browser, 400, id, undefined, WRONG_CODE);
    }
    if (outcome.kind === 'taken') return this.views.notCreated(lang, interaction);
    if (!interaction) return this.accountReady(lang, outcome.user, browser);
    return this.interactions.signInAndContinue(outcome.user, interaction, browser);
  }

  /**
   * The authorization request expired (it lives 10 minutes, the code 15) or was answered while
   * the person read their email: the account is made all the same and signed in, and the page
   * says to return to the application, whose next sign-in finds the session.
   */
  private async accountReady(
    lang: PageLanguage,
    user: User,
    browser: BrowserContext,
  ): Promise<PageResult> {
    const session = await this.sessions.create(user.id, 'password', browser);
    const { t } = lang.translator();
    const html = linkPage(lang, t('signUp.readyTitle'), t('signUp.ready'), {
      href: '/account',
      text: t('common.goToYourAccount'),
    });
    return { status: 200, html, cookies: [sessionCookie(session)] };
  }
}
