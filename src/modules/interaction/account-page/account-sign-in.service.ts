import { Injectable } from '@nestjs/common';
import type { Text } from '../../../common/i18n/i18n';
import type { PageLanguage } from '../../../common/i18n/page-language';
import type { PasskeyCeremonyStart } from '../../passkeys/passkey-view';
import { passkeySignInForm } from '../../passkeys/sign-in/passkey-sign-in-form';
import { formExpired } from '../../pages/page-error';
import type { PageResult } from '../../pages/page-result';
import type { Params } from '../../../common/http/params';
import { CLEAR_SESSION, type BrowserContext } from '../../sessions/cookies';
import { Csrf } from '../../sessions/csrf';
import { sessionCookie, SessionService } from '../../sessions/session.service';
import { SignInMethods, type SignInAttempt } from '../sign-in/sign-in-methods';
import { ACCOUNT_PAGE, AccountFormsService, LOGIN_PAGE } from './account-forms.service';
import { accountLoginPage, type AccountLoginModel } from './pages/login.page';

const LOGIN_PURPOSE = 'account:login';
/** The passkey form's routes on this page (the options are at `${PASSKEY_LOGIN}/options`). */
export const PASSKEY_LOGIN = '/account/login/passkey';
/** The password reset without an authorization request: it ends at /account. */
const FORGOT_PASSWORD_PAGE = '/oauth2/forgot-password';

/**
 * The account page's sign-in and sign-out (docs/accounts.md, "The account page"), on the OAuth
 * pages' session: the password form and the passkey form (SignInMethods, as on the login page of
 * an authorization), and "Sign out".
 */
@Injectable()
export class AccountSignInService {
  constructor(
    private readonly sessions: SessionService,
    private readonly signIn: SignInMethods,
    private readonly csrf: Csrf,
    private readonly forms: AccountFormsService,
  ) {}

  /** GET /account/login: the form, or the account page for a browser already signed in. */
  async showLogin(lang: PageLanguage, browser: BrowserContext): Promise<PageResult> {
    if (await this.sessions.current(browser.sessionCookie)) {
      return { status: 302, location: ACCOUNT_PAGE };
    }
    return this.renderLogin(lang, browser, 200);
  }

  /** POST /account/login: the password form (SignInMethods), then a password session. */
  async submitLogin(
    form: Params,
    lang: PageLanguage,
    browser: BrowserContext,
  ): Promise<PageResult> {
    if (!this.csrf.verify(browser, LOGIN_PURPOSE, form.csrf_token)) throw formExpired();
    return this.signedIn(await this.signIn.password(form, browser.ip), lang, browser);
  }

  /**
   * The own check of POST /account/login/passkey/options, before its per-address quota counts
   * it: the form's CSRF token of this browser's sign-in page (403 page otherwise).
   */
  checkPasskeyStart(form: Params, browser: BrowserContext): void {
    if (!this.csrf.verify(browser, LOGIN_PURPOSE, form.csrf_token)) throw formExpired();
  }

  /** A discoverable passkey sign-in's options (the console's and the login page's ceremony). */
  passkeyOptions(): Promise<PasskeyCeremonyStart> {
    return this.signIn.passkeyOptions();
  }

  /**
   * POST /account/login/passkey: the passkey form (SignInMethods), then a `passkey` session.
   * `requestId`: this HTTP request's id, for the log line of a refused assertion.
   */
  async submitPasskeyLogin(
    form: Params,
    lang: PageLanguage,
    browser: BrowserContext,
    requestId: string,
  ): Promise<PageResult> {
    if (!this.csrf.verify(browser, LOGIN_PURPOSE, form.csrf_token)) throw formExpired();
    return this.signedIn(await this.signIn.passkey(form, requestId), lang, browser);
  }

  /** POST /account/logout: ends the session (everywhere: the row is deleted). */
  async logout(form: Params, browser: BrowserContext): Promise<PageResult> {
    this.forms.checkCsrf(browser, 'logout', form.csrf_token);
    await this.sessions.destroy(browser.sessionCookie);
    return { status: 303, location: LOGIN_PAGE, cookies: [CLEAR_SESSION] };
  }

  /**
   * After a sign-in form: a new session of this browser (its earlier one, of any account, ends)
   * and the account page, or the form again with the refusal.
   */
  private async signedIn(
    attempt: SignInAttempt,
    lang: PageLanguage,
    browser: BrowserContext,
  ): Promise<PageResult> {
    if (attempt.kind === 'refused') {
      const page = this.renderLogin(
        lang,
        browser,
        attempt.status,
        attempt.message,
        attempt.username,
      );
      return { ...page, retryAfterSeconds: attempt.retryAfterSeconds };
    }
    // The browser's earlier session, if any, ends with this sign-in (SessionService.create).
    const session = await this.sessions.create(attempt.user.id, attempt.method, browser);
    return { status: 303, location: ACCOUNT_PAGE, cookies: [sessionCookie(session)] };
  }

  private renderLogin(
    lang: PageLanguage,
    browser: BrowserContext,
    status: number,
    error?: Text,
    username?: string,
  ): PageResult {
    const { token, cookies } = this.csrf.issue(browser, LOGIN_PURPOSE);
    const model: AccountLoginModel = {
      csrfToken: token,
      error,
      username,
      passkey: passkeySignInForm(lang.translator().t, {
        action: PASSKEY_LOGIN,
        optionsUrl: `${PASSKEY_LOGIN}/options`,
        fields: { csrf_token: token },
      }),
      // Sign-up belongs to an application's login page (its request decides): no link here.
      links: { forgotPassword: FORGOT_PASSWORD_PAGE },
    };
    // The passkey form's script runs on this page (its CSP allows 'self' scripts).
    return { status, html: accountLoginPage(lang, model), cookies, ownScript: true };
  }
}
