import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppError } from '../../../common/errors/app-error';
import { msg, type MessageKey, type Text } from '../../../common/i18n/i18n';
import type { PageLanguage } from '../../../common/i18n/page-language';
import { ErrorCode } from '../../../common/errors/error-code';
import { positiveIntId } from '../../../common/validation/path-ids';
import { AppConfig } from '../../../config/app-config';
import { ApplicationsService } from '../../applications/applications.service';
import { AuditLog } from '../../audit/audit-log.service';
import { PasskeysService } from '../../console/passkeys/passkeys.service';
import { formExpired, PageError } from '../../oauth/protocol/oauth-error';
import type { PageResult } from '../../oauth/protocol/page-result';
import { jsonField, type Params } from '../../oauth/protocol/params';
import { CLEAR_SESSION, type BrowserContext } from '../../sessions/cookies';
import { Csrf } from '../../sessions/csrf';
import type { SessionAuthMethod } from '../../sessions/oauth-session.entity';
import { PasskeySignInService } from '../../console/passkeys/passkey-sign-in.service';
import type { PasskeyCeremonyStart } from '../../console/passkeys/passkey-view';
import { passkeySignInForm } from '../../oauth/interaction/pages/passkey-sign-in-form';
import { LOGIN_REFUSALS, LoginService } from '../../sessions/login.service';
import { sessionCookie, SessionService, type CurrentSession } from '../../sessions/session.service';
import { UpstreamIdentitiesService } from '../../upstreams/identities/upstream-identities.service';
import { UpstreamProvidersService } from '../../upstreams/providers/upstream-providers.service';
import { AppUsersService } from '../../users/app-users.service';
import { hashPassword } from '../../users/password';
import type { ProfileProblems } from '../../users/profile';
import { UsersService } from '../../users/users.service';
import { passwordWeakness } from '../../users/password-policy';
import { passwordProblemText } from '../account-pages';
import { StepUp, type StepUpMethod } from '../step-up/step-up';
import { AccountEmails, CONFIRM_EMAIL_PATH } from './account-emails';
import { confirmEmailPage } from './pages/confirm-email.page';
import {
  ACCOUNT_FORMS,
  accountPage,
  type AccountForm,
  type AccountPageModel,
  type AuthorizedApplicationRow,
} from './pages/account.page';
import { accountLoginPage, type AccountLoginModel } from './pages/login.page';

/** How many sign-ins the page lists. */
export const RECENT_SIGN_INS_SHOWN = 20;

const LOGIN_PAGE = '/account/login';
const ACCOUNT_PAGE = '/account';
const LOGIN_PURPOSE = 'account:login';
/** The passkey form's routes on this page (the options are at `${PASSKEY_LOGIN}/options`). */
export const PASSKEY_LOGIN = '/account/login/passkey';
/** The password reset without an authorization request: it ends at /account. */
const FORGOT_PASSWORD_PAGE = '/oauth2/forgot-password';

/**
 * The notices of `?done=` after a change (the forms' redirects, the script's reloads, the
 * provider's return): fixed texts, so the query string never puts words on the page.
 */
const NOTICES: Record<string, MessageKey> = {
  profile: 'account.notice.profile',
  password: 'account.notice.password',
  revoked: 'account.notice.revoked',
  passkey_added: 'account.notice.passkeyAdded',
  passkey_removed: 'account.notice.passkeyRemoved',
  upstream_connected: 'account.notice.upstreamConnected',
  upstream_disconnected: 'account.notice.upstreamDisconnected',
  email_verified: 'account.notice.emailVerified',
};

/** The sign-in form's words for each refusal of LoginService (same status as LOGIN_REFUSALS). */
const REFUSAL_KEYS: Record<keyof typeof LOGIN_REFUSALS, MessageKey> = {
  failed: 'login.refused.failed',
  throttled: 'login.refused.throttled',
  busy: 'login.refused.busy',
};

/** A form of /account, or the code form of the email verification page. */
type FormPurpose = AccountForm | 'email_confirm';

/** Emailed codes are six digits; anything else in the link is not put in the form. */
const CODE_IN_LINK = /^[0-9]{6}$/;

/** What one rendering of the account page changes from the stored state. */
interface RenderOptions {
  notice?: Text;
  profile?: { nickname: string; avatar: string; problems: ProfileProblems };
  passwordError?: Text;
  /** A refused "Send a verification code", with the address typed. */
  email?: { error: Text; typed: string };
}

/**
 * The end user's account page (docs/accounts.md, "The account page"): sign-in and sign-out on
 * the OAuth pages' session, the profile, verifying and adding addresses, the password, and
 * revoking an application's access; the page also lists passkeys, connected accounts and recent
 * sign-ins (the first two changed by its script through the console API). Every form is
 * CSRF-protected with a token bound to the session and to the form's purpose.
 */
@Injectable()
export class AccountPageService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly sessions: SessionService,
    private readonly login: LoginService,
    private readonly csrf: Csrf,
    private readonly users: UsersService,
    private readonly appUsers: AppUsersService,
    private readonly applications: ApplicationsService,
    private readonly passkeys: PasskeysService,
    private readonly identities: UpstreamIdentitiesService,
    private readonly providers: UpstreamProvidersService,
    private readonly audit: AuditLog,
    private readonly emails: AccountEmails,
    private readonly passkeySignIn: PasskeySignInService,
    private readonly stepUp: StepUp,
  ) {}

  /** GET /account/login: the form, or the account page for a browser already signed in. */
  async showLogin(lang: PageLanguage, browser: BrowserContext): Promise<PageResult> {
    if (await this.sessions.current(browser.sessionCookie)) {
      return { status: 302, location: ACCOUNT_PAGE };
    }
    return this.renderLogin(lang, browser, 200);
  }

  /**
   * POST /account/login: the OAuth login page's check (LoginService.authenticate: throttle,
   * queue, the same refusals), then a password session and the account page.
   */
  async submitLogin(
    form: Params,
    lang: PageLanguage,
    browser: BrowserContext,
  ): Promise<PageResult> {
    if (!this.csrf.verify(browser, LOGIN_PURPOSE, form.csrf_token)) throw formExpired();
    const username = text(form.username);
    const outcome = await this.login.authenticate(username, text(form.password), browser.ip);
    if (outcome.kind !== 'ok') {
      const [status] = LOGIN_REFUSALS[outcome.kind];
      const refusal = msg(REFUSAL_KEYS[outcome.kind]);
      const page = this.renderLogin(lang, browser, status, refusal, username);
      return outcome.kind === 'failed'
        ? page
        : { ...page, retryAfterSeconds: outcome.retryAfterSeconds };
    }
    return this.startSession(outcome.user.id, 'password', browser);
  }

  /** A new session of this browser (its earlier one, of any account, ends), then the page. */
  private async startSession(
    userId: string,
    method: SessionAuthMethod,
    browser: BrowserContext,
  ): Promise<PageResult> {
    await this.sessions.destroy(browser.sessionCookie);
    const session = await this.sessions.create(userId, method, browser);
    return { status: 303, location: ACCOUNT_PAGE, cookies: [sessionCookie(session)] };
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
    return this.passkeySignIn.options();
  }

  /**
   * POST /account/login/passkey: the ceremony id and assertion of the passkey form. One 401
   * message for every failure, as on the OAuth login page; success is a `passkey` session.
   * `requestId`: this HTTP request's id, for the log line of a refused assertion.
   */
  async submitPasskeyLogin(
    form: Params,
    lang: PageLanguage,
    browser: BrowserContext,
    requestId: string,
  ): Promise<PageResult> {
    if (!this.csrf.verify(browser, LOGIN_PURPOSE, form.csrf_token)) throw formExpired();
    const userId = await this.passkeySignIn.verify(
      form.ceremony_id,
      jsonField(form.assertion),
      requestId,
    );
    const user = userId === null ? null : await this.login.signedInWithoutPassword(userId);
    if (!user) return this.renderLogin(lang, browser, 401, msg('passkey.failed'));
    return this.startSession(user.id, 'passkey', browser);
  }

  /** POST /account/logout: ends the session (everywhere: the row is deleted). */
  async logout(form: Params, browser: BrowserContext): Promise<PageResult> {
    this.checkCsrf(browser, 'logout', form.csrf_token);
    await this.sessions.destroy(browser.sessionCookie);
    return { status: 303, location: LOGIN_PAGE, cookies: [CLEAR_SESSION] };
  }

  /** GET /account: the page, with the notice of `done` when it names one. */
  async show(lang: PageLanguage, browser: BrowserContext, done: unknown): Promise<PageResult> {
    const current = await this.sessions.current(browser.sessionCookie);
    if (!current) return { status: 302, location: LOGIN_PAGE };
    const notice =
      typeof done === 'string' && Object.hasOwn(NOTICES, done) ? msg(NOTICES[done]) : undefined;
    return this.render(lang, current, browser, 200, notice ? { notice } : {});
  }

  /** POST /account/profile: nickname and avatar URL; a refusal shows the page again (400). */
  async updateProfile(
    form: Params,
    lang: PageLanguage,
    browser: BrowserContext,
  ): Promise<PageResult> {
    return this.withSession(browser, form, 'profile', async (current) => {
      const change = { nickname: text(form.nickname), avatar: text(form.avatar) };
      const problems = await this.users.updateProfile(current.user.id, change);
      if (Object.keys(problems).length > 0) {
        return this.render(lang, current, browser, 400, { profile: { ...change, problems } });
      }
      return done('profile');
    });
  }

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
    return this.withSession(browser, form, 'password', async (current) => {
      const { user, session } = current;
      const refuse = (status: number, passwordError: Text): Promise<PageResult> =>
        this.render(lang, current, browser, status, { passwordError });
      const newPassword = text(form.new_password);
      if (newPassword !== text(form.repeat_password)) {
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

  /**
   * POST /account/emails/code: emails a verification code to an unverified address of the user,
   * or to a new one, then shows the form to enter it; a refusal shows the page again.
   */
  async sendEmailCode(
    form: Params,
    lang: PageLanguage,
    browser: BrowserContext,
  ): Promise<PageResult> {
    return this.withSession(browser, form, 'email_code', async (current) => {
      const typed = text(form.email);
      const refuse = (status: number, error: Text): Promise<PageResult> =>
        this.render(lang, current, browser, status, { email: { error, typed } });
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
    return this.renderConfirmEmail(lang, browser, 200, text(id), filled);
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
    return this.withSession(browser, form, 'email_confirm', async ({ user }) => {
      const outcome = await this.emails.confirm(user, form.id, form.code);
      const again = (status: number, error: Text): PageResult =>
        this.renderConfirmEmail(lang, browser, status, text(form.id), '', error);
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

  /**
   * POST /account/applications/:applicationId/revoke: what the application API's POST
   * /users/:userId/revoke does (AppUsersService.revoke: tokens revoked, consent forgotten,
   * events), for an application the user has a live grant for; any other id is 404.
   */
  async revoke(rawId: string, form: Params, browser: BrowserContext): Promise<PageResult> {
    return this.withSession(browser, form, 'revoke', async ({ user }) => {
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

  /**
   * A form of the signed-in page: no session → the sign-in page (nothing is done); a token
   * that is not this session's for this form → 403; otherwise `work`.
   */
  private async withSession(
    browser: BrowserContext,
    form: Params,
    purpose: FormPurpose,
    work: (current: CurrentSession) => Promise<PageResult>,
  ): Promise<PageResult> {
    const current = await this.sessions.current(browser.sessionCookie);
    if (!current) return { status: 303, location: LOGIN_PAGE };
    this.checkCsrf(browser, purpose, form.csrf_token);
    return work(current);
  }

  private checkCsrf(browser: BrowserContext, purpose: FormPurpose, token: unknown): void {
    if (!this.csrf.verify(browser, `account:${purpose}`, token)) throw formExpired();
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

  private async render(
    lang: PageLanguage,
    current: CurrentSession,
    browser: BrowserContext,
    status: number,
    options: RenderOptions,
  ): Promise<PageResult> {
    const { user } = current;
    const { tokens, cookies } = this.csrf.issueAll(
      browser,
      ACCOUNT_FORMS.map((form) => `account:${form}` as const),
    );
    const [emails, passkeys, identities, providers, applications, signIns] = await Promise.all([
      this.users.emailsOf(user),
      this.passkeys.list(user.id),
      this.identities.listForUser(user.id),
      this.providers.listEnabled(),
      this.authorizedApplications(user.id),
      this.sessions.recentSignIns(user.id, RECENT_SIGN_INS_SHOWN),
    ]);
    const names = new Map(providers.map((provider) => [provider.id, provider.displayName]));
    const bound = new Set(identities.map((identity) => identity.providerId));
    const model: AccountPageModel = {
      user: {
        username: user.username,
        email: user.email,
        nickname: user.nickname,
        avatar: user.avatar,
      },
      notice: options.notice,
      csrf: {
        profile: tokens['account:profile'],
        email_code: tokens['account:email_code'],
        password: tokens['account:password'],
        revoke: tokens['account:revoke'],
        logout: tokens['account:logout'],
      },
      profile: options.profile ?? { nickname: user.nickname, avatar: user.avatar, problems: {} },
      emails: { list: emails, error: options.email?.error, typed: options.email?.typed },
      password: {
        hasPassword: user.passwordHash !== null,
        maySet: isOpenWindow(this.stepUp.method(current)),
        error: options.passwordError,
      },
      passkeys: passkeys.map((passkey) => ({
        id: passkey.id,
        name: passkey.name,
        createdAt: new Date(passkey.createdAt),
        lastUsedAt: passkey.lastUsedAt === null ? null : new Date(passkey.lastUsedAt),
      })),
      upstreams: identities.map((identity) => ({
        id: identity.id,
        provider: names.get(identity.providerId) ?? identity.providerId,
        username: identity.profile.username ?? identity.subject,
        connectedAt: identity.createdAt,
        lastUsedAt: identity.lastUsedAt,
      })),
      connectable: providers
        .filter((provider) => !bound.has(provider.id))
        .map(({ id, displayName }) => ({ id, displayName })),
      applications,
      signIns,
    };
    return { status, html: accountPage(lang, model), cookies, ownScript: true };
  }

  /** The applications with a live grant of the user, with their names and logos. */
  private async authorizedApplications(userId: string): Promise<AuthorizedApplicationRow[]> {
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

/** A form field as text ('' when absent or repeated). */
function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function done(notice: keyof typeof NOTICES): PageResult {
  return { status: 303, location: `${ACCOUNT_PAGE}?done=${notice}` };
}

function notAuthorized(): PageError {
  return new PageError(404, msg('errors.notFoundTitle'), msg('account.applications.notAuthorized'));
}

/** An account without a password within 5 minutes of a primary sign-in (it may set one now). */
function isOpenWindow(method: StepUpMethod): boolean {
  return method.kind === 'recent_sign_in' && method.open;
}
