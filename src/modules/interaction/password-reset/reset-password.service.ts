import { PendingInteractions } from '../pending-interactions';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock';
import { AppConfig } from '../../../config/app-config';
import { AuditLog } from '../../audit/audit-log.service';
import { AuthorizeService } from '../../oauth/authorize/authorize.service';
import { MAX_SEALED_LENGTH } from '../../oauth/authorize/sealed-request';
import { type Pending } from '../../oauth/authorize/pending-authorizations.service';
import { PageError, formExpired } from '../../pages/page-error';
import { cspSourceOf, type PageResult } from '../../pages/page-result';
import { type Params } from '../../../common/http/params';
import type { BrowserContext } from '../../sessions/cookies';
import { Csrf } from '../../sessions/csrf';
import { sessionCookie, SessionService, type NewSession } from '../../sessions/session.service';
import { AccountRecovery, type RecoverableAccount } from '../../users/account-recovery';
import { AppUsersService } from '../../users/app-users.service';
import { hashPassword } from '../../users/password';
import {
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  passwordWeakness,
  type PasswordWeakness,
} from '../../users/password-policy';
import type { User } from '../../users/user.entity';
import { OneTimeCodes } from '../one-time-codes/one-time-codes.service';
import { passwordChangedMail } from '../one-time-codes/password-changed-mail';
import { answerFloor, floorStart } from '../answer-floor';
import { MailAfterAnswer } from './mail-after-answer';
import { askedHere, CLEAR_RESET } from './reset-browser';
import { passwordChangedPage, resetPasswordPage } from './password-reset.pages';
import { ACCOUNT_PATH, FORGOT_PASSWORD_PATH, pathWith } from './reset-links';
import { msg, type Locale, type Text } from '../../../common/i18n/i18n';
import type { PageLanguage } from '../../../common/i18n/page-language';
import { passwordProblemText } from '../account-pages';

/** What the reset page says for a code that is wrong, expired, spent or unknown (one answer). */
const CODE_REFUSED = msg('code.wrong');
/** The audit action of a password reset by email (docs/console.md, "Audit log"). */
export const PASSWORD_RESET_ACTION = 'user.password_reset';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A code as a link or a person may give it: digits and spaces, nothing long. */
const CODE_TEXT = /^[0-9 ]{1,12}$/;

/** The CSRF purpose of the reset form of one code id. */
const resetPurpose = (id: string): string => `password-reset:${id}`;

/** Refused by the password rule once the account is known: the transaction rolls back. */
class RefusedPassword extends Error {
  constructor(readonly weakness: PasswordWeakness) {
    super(weakness.kind);
  }
}

type ResetOutcome =
  | { kind: 'refused' }
  | {
      kind: 'reset';
      account: RecoverableAccount;
      /** The address the code was sent to. */
      email: string;
      firstPassword: boolean;
    };

interface ResetForm {
  id: string;
  code: string;
  /** The sealed authorization request the form carries, open or not. */
  request?: string;
  /** That request, while it is open. */
  pending: Pending | null;
}

/**
 * The reset page (docs/accounts.md, "Password reset"): a code from the email and a new password.
 * The right code, the new hash, the end of every session and of every application's tokens of the
 * account, the audit entry and (for the primary address) its verification commit together; then,
 * in the browser that asked for the code, the person is signed in and the authorization continues
 * as after a login, or the account page follows. Another browser goes to the account's sign-in.
 *
 * Why this service is larger: it is one job, and its dependencies are the parts of one
 * transaction that must commit together (the code, the account, the sessions, the applications'
 * tokens, the audit entry) and of the login it then stands in for (the session, the pending
 * request, the authorization that continues). Split, the transaction's rule would be spread over
 * several files.
 */
@Injectable()
export class ResetPasswordService {
  private readonly site: string;

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly accounts: AccountRecovery,
    private readonly appUsers: AppUsersService,
    private readonly codes: OneTimeCodes,
    private readonly sessions: SessionService,
    private readonly audit: AuditLog,
    private readonly mail: MailAfterAnswer,
    private readonly csrf: Csrf,
    private readonly interactions: PendingInteractions,
    private readonly authorize: AuthorizeService,
    private readonly clock: Clock,
  ) {
    this.site = new URL(config.publicBaseUrl).host;
  }

  /** The form; nothing is looked up by the id, so a decoy id shows the same page. */
  async show(query: Params, lang: PageLanguage, browser: BrowserContext): Promise<PageResult> {
    const form = await this.formOf(query, lang);
    return this.render(lang, form, browser, 200);
  }

  /** `resetCookie`: the browser's binding to the code it asked for (reset-browser.ts), if any. */
  async submit(
    body: Params,
    lang: PageLanguage,
    browser: BrowserContext,
    resetCookie: string | undefined,
  ): Promise<PageResult> {
    const form = await this.formOf(body, lang);
    if (!this.csrf.verify(browser, resetPurpose(form.id), body.csrf_token)) throw formExpired();
    const password = typeof body.password === 'string' ? body.password : '';
    if (password !== body.password_repeat) {
      return this.render(lang, form, browser, 400, msg('passwordReset.notSame'));
    }
    // The length, before the code is tried; the strength estimate (CPU-heavy, and it needs the
    // person's names) only for the holder of the right code, below.
    const length = [...password].length;
    if (length < MIN_PASSWORD_LENGTH || length > MAX_PASSWORD_LENGTH) {
      const weakness = await passwordWeakness(password, { username: '', email: '' });
      return this.render(lang, form, browser, 400, weakness ? passwordProblemText(weakness) : '');
    }
    const started = floorStart();
    let outcome: ResetOutcome;
    try {
      outcome = await this.dataSource.transaction((manager) =>
        this.reset(manager, form, password, browser.ip),
      );
    } catch (error) {
      if (error instanceof RefusedPassword) {
        return this.render(lang, form, browser, 400, passwordProblemText(error.weakness));
      }
      throw error;
    }
    if (outcome.kind === 'refused') {
      // A wrong try costs a write on a real code and nothing on a decoy id: one answer time.
      await answerFloor(started);
      return this.render(lang, { ...form, code: '' }, browser, 400, CODE_REFUSED);
    }
    this.sendNotices(outcome, lang.locale);
    if (!askedHere(this.csrf, browser, resetCookie, form.id, form.request)) {
      // Not the browser that asked: the password is set, but this browser is not signed in and
      // continues no authorization (it may be someone else's); the account's sign-in follows.
      return { status: 303, location: ACCOUNT_PATH };
    }
    const session = await this.sessions.create(outcome.account.user.id, 'password', browser);
    const answer = await this.continueAfter(lang, outcome.account.user, session, form);
    return { ...answer, cookies: [...(answer.cookies ?? []), CLEAR_RESET] };
  }

  /**
   * One transaction: spend the code, lock the account, check the password with the person's
   * names (a refusal rolls everything back, the code included), store the hash, end every
   * session, revoke every application's tokens (each application sees token_revoked), record the
   * audit entry.
   */
  private async reset(
    manager: EntityManager,
    form: ResetForm,
    password: string,
    ip: string,
  ): Promise<ResetOutcome> {
    const consumed = await this.codes.consume(manager, 'password_reset', form.id, form.code);
    if (consumed.kind === 'refused' || consumed.code.userId === null) return { kind: 'refused' };
    const { userId, email } = consumed.code;
    // The address may have left the account since the code was sent: the code is spent, for nothing.
    const account = await this.accounts.lockForReset(manager, userId, email);
    if (!account) return { kind: 'refused' };
    const weakness = await passwordWeakness(password, { username: account.user.username, email });
    if (weakness) throw new RefusedPassword(weakness);
    const firstPassword = account.user.passwordHash === null;
    const hash = await hashPassword(password, this.config.passwordHashCost);
    const emailVerified = await this.accounts.setPassword(manager, account, hash, this.clock.now());
    const sessionsEnded = await this.sessions.endAll(userId, manager);
    // Whoever knew the old password may hold applications' tokens: they end too (docs/security.md).
    const tokensRevoked = await this.appUsers.revokeAfterPasswordReset(manager, userId);
    await this.audit.record(
      {
        applicationId: null,
        actorUserId: userId,
        action: PASSWORD_RESET_ACTION,
        target: `user:${userId}`,
        details: { sessionsEnded, tokensRevoked, firstPassword, emailVerified },
        ip,
      },
      manager,
    );
    return { kind: 'reset', account, email, firstPassword };
  }

  /**
   * The notice of the change, to the primary address and to the one the code went to, in
   * `locale` (the reset page's).
   */
  private sendNotices(outcome: Extract<ResetOutcome, { kind: 'reset' }>, locale: Locale): void {
    const { user } = outcome.account;
    // Both as the account stores them (the code's address is one of its own), so one form.
    const recipients = new Set([user.email, outcome.email].filter((a) => a !== ''));
    const resetLink = new URL(FORGOT_PASSWORD_PATH, this.config.publicBaseUrl).href;
    for (const to of recipients) {
      this.mail.send(
        passwordChangedMail({
          to,
          locale,
          site: this.site,
          username: user.username,
          codeSentTo: outcome.email,
          when: this.clock.now(),
          firstPassword: outcome.firstPassword,
          resetLink,
        }),
      );
    }
  }

  /**
   * As after a sign-in on the login page: the authorization goes on (consent, or the client with
   * a code). Without a request, the account page; with one that expired or was answered
   * meanwhile, a page saying so (the password is changed all the same).
   */
  private async continueAfter(
    lang: PageLanguage,
    user: User,
    session: NewSession,
    { request, pending }: ResetForm,
  ): Promise<PageResult> {
    const cookie = sessionCookie(session);
    const changed = { status: 200, html: passwordChangedPage(lang), cookies: [cookie] };
    if (request === undefined) return { status: 303, location: ACCOUNT_PATH, cookies: [cookie] };
    if (!pending) return changed;
    const application = await this.interactions.applicationOrNull(pending);
    if (!application) return changed;
    try {
      const signedIn = { user, session: session.session };
      const next = await this.authorize.proceed(
        application,
        signedIn,
        pending.request,
        pending,
        303,
      );
      return { ...next, cookies: [...(next.cookies ?? []), cookie] };
    } catch (error) {
      if (error instanceof PageError) return changed;
      throw error;
    }
  }

  private render(
    lang: PageLanguage,
    form: ResetForm,
    browser: BrowserContext,
    status: number,
    error?: Text,
  ): PageResult {
    const { token, cookies } = this.csrf.issue(browser, resetPurpose(form.id));
    const html = resetPasswordPage(lang, {
      id: form.id,
      requestId: form.request,
      csrfToken: token,
      code: form.code,
      newCodeUrl: pathWith(FORGOT_PASSWORD_PATH, { request: form.pending?.sealed }),
      error,
    });
    const formTarget = form.pending ? cspSourceOf(form.pending.request.redirectUri) : undefined;
    return { status, html, cookies, formTarget };
  }

  /**
   * The id (required: a link without one is broken), the code as typed or linked, and the
   * authorization request the person came from. The request is carried even once expired: the
   * reset works without it, and then says the application's request expired.
   */
  private async formOf(params: Params, lang: PageLanguage): Promise<ResetForm> {
    const id = typeof params.id === 'string' ? params.id.toLowerCase() : '';
    if (!UUID.test(id)) {
      throw new PageError(
        400,
        msg('passwordReset.incompleteLinkTitle'),
        msg('passwordReset.incompleteLink'),
      );
    }
    const code =
      typeof params.code === 'string' && CODE_TEXT.test(params.code) ? params.code.trim() : '';
    const request =
      typeof params.request === 'string' &&
      params.request !== '' &&
      params.request.length <= MAX_SEALED_LENGTH
        ? params.request
        : undefined;
    const pending =
      request === undefined ? null : await this.interactions.pendingOrNull(request, lang);
    return { id, code, request, pending };
  }
}
