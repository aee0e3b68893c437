import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock';
import { html, messagePage } from '../../../common/http/html';
import { BOLD, msg, type Locale, type Text, type Translate } from '../../../common/i18n/i18n';
import type { PageLanguage } from '../../../common/i18n/page-language';
import { AppConfig } from '../../../config/app-config';
import { MailNotSent } from '../../mail/mail-message';
import { Mailer } from '../../mail/mailer';
import { offeredSignIn } from '../../oauth/authorize/checks/upstream-providers';
import { PageError } from '../../oauth/protocol/oauth-error';
import { cspSourceOf, type PageResult } from '../../oauth/protocol/page-result';
import type { Params } from '../../oauth/protocol/params';
import type { BrowserContext } from '../../sessions/cookies';
import {
  BUSY_RETRY_AFTER_SECONDS,
  PasswordCheckQueue,
  PasswordQueueFull,
} from '../../sessions/password-check-queue';
import { UpstreamProvidersService } from '../../upstreams/providers/upstream-providers.service';
import { isValidUsername, normalEmail } from '../../users/account-names';
import { addressHeldByAnother, claimsNameOrAddress } from '../../users/address-holder';
import { hashPassword } from '../../users/password';
import { passwordWeakness } from '../../users/password-policy';
import { UserEmail } from '../../users/user-email.entity';
import { User } from '../../users/user.entity';
import { answerFloor, floorStart } from '../answer-floor';
import {
  codeId,
  codePage,
  linkPage,
  mailNotSent,
  passwordProblemText,
  tooMany,
  WRONG_CODE,
} from '../account-pages';
import { codeMail } from '../one-time-codes/code-mail';
import { OneTimeCodes } from '../one-time-codes/one-time-codes.service';
import { PendingInteractions, type Interaction } from '../pending-interaction';
import { sessionCookie, SessionService } from '../../sessions/session.service';
import { AuditLog } from '../../audit/audit-log.service';
import { SignUpAttempts } from './sign-up-attempts';
import { SignUpBrowser } from './sign-up-browser';
import { signUpOffered } from './sign-up-offered';
import { signUpPage } from './sign-up.pages';

export const SIGN_UP_PATH = '/oauth2/signup';
export const SIGN_UP_CODE_PATH = '/oauth2/signup/verify';

/** What a sign-up code keeps until it is entered: never the password, only its scrypt hash. */
interface SignUpPayload {
  username: string;
  passwordHash: string;
}

/** The form's checks passed (with the address as stored), or the page's status and reason. */
type FormCheck = { kind: 'ok'; email: string } | { kind: 'refused'; status: number; error: Text };

/** The form as submitted, trimmed; the password is never shown again. */
interface SignUpForm {
  username: string;
  email: string;
  password: string;
}

/**
 * Sign-up on the login pages of an authorization (docs/accounts.md, "Sign-up"), verify-first:
 * the account is made only when the code emailed to the address is entered, in the browser
 * that submitted the form (SignUpBrowser), so the form never tells whether an address has an
 * account and the owner of an address never finishes a sign-up someone else started with it.
 * An address that has an account gets a notice instead of a code, and the form answers exactly
 * as for a new address.
 */
@Injectable()
export class SignUpService {
  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly interactions: PendingInteractions,
    private readonly upstreamProviders: UpstreamProvidersService,
    private readonly codes: OneTimeCodes,
    private readonly mailer: Mailer,
    private readonly attempts: SignUpAttempts,
    private readonly queue: PasswordCheckQueue,
    private readonly clock: Clock,
    private readonly sessions: SessionService,
    private readonly audit: AuditLog,
    private readonly browsers: SignUpBrowser,
  ) {}

  /** GET /oauth2/signup: the form. */
  async showForm(
    requestId: unknown,
    lang: PageLanguage,
    browser: BrowserContext,
  ): Promise<PageResult> {
    const interaction = await this.offered(requestId, lang);
    return this.renderForm(lang, interaction, browser, 200);
  }

  /**
   * POST /oauth2/signup: checks the form, then emails a code (new address) or a notice (an
   * address with an account) and answers both with the same redirect to the code page and the
   * same cookie binding the code (or the decoy id) to this browser.
   */
  async submitForm(body: Params, lang: PageLanguage, browser: BrowserContext): Promise<PageResult> {
    const interaction = await this.offered(body.request, lang);
    this.interactions.checkForm(browser, interaction, body.csrf_token);
    const attempt = await this.attempts.take(browser.ip);
    if (attempt.kind === 'throttled') return tooMany(lang, 'sign-ups', attempt.retryAfterSeconds);
    const form = readForm(body);
    const checked = await this.check(form);
    if (checked.kind === 'refused') {
      return this.renderForm(lang, interaction, browser, checked.status, checked.error, form);
    }
    const { email } = checked;
    const held = await addressHeldByAnother(this.dataSource.manager, email, null);
    // Hashed in both cases, so the two answers cost the same.
    const passwordHash = await this.hash(form.password, browser.ip);
    if (passwordHash === null) return busy(lang);
    const payload: SignUpPayload = { username: form.username, passwordHash };
    // Writing a code costs a few milliseconds the notice does not: both answers are held to the
    // same floor, so their timing tells nothing either (docs/accounts.md, "Sign-up").
    const started = floorStart();
    const sent = held
      ? await this.sendNotice(interaction, email, browser.ip, lang.locale)
      : await this.sendCode(interaction, email, payload, browser.ip, lang.locale);
    await answerFloor(started);
    if (sent.kind === 'throttled') return tooMany(lang, 'codes', sent.retryAfterSeconds);
    return {
      status: 303,
      location: this.interactions.path(SIGN_UP_CODE_PATH, interaction, { id: sent.id }),
      cookies: this.browsers.cookiesFor(browser, sent.id),
    };
  }

  /**
   * GET /oauth2/signup/verify: the code form (the emailed link fills the code in), in the browser
   * that submitted the form; any other browser is only told to enter the code there, with no
   * form and without the code.
   */
  async showCode(query: Params, lang: PageLanguage, browser: BrowserContext): Promise<PageResult> {
    const interaction = await this.offeredOrExpired(query.request, lang);
    const id = codeId(query.id);
    if (!this.browsers.started(browser, id)) return otherBrowser(lang, 200);
    const code = typeof query.code === 'string' ? query.code.slice(0, 12) : undefined;
    return this.renderCode(lang, interaction, browser, 200, id, code);
  }

  /**
   * POST /oauth2/signup/verify: the right code, from the browser that submitted the form, creates
   * the account in the transaction that spends the code, and signs the person in; the
   * authorization then continues as after a login. Another browser's try is refused before the
   * code is looked at (it neither counts nor spends it).
   */
  async submitCode(body: Params, lang: PageLanguage, browser: BrowserContext): Promise<PageResult> {
    const interaction = await this.offeredOrExpired(body.request, lang);
    const id = codeId(body.id);
    this.interactions.checkFormFor(browser, codeFormPurpose(id), body.csrf_token);
    // Every refusal answers after the same floor as the reset page's: a wrong try writes on a
    // real code, nothing on a decoy id, and another browser's is refused before any look-up.
    const started = floorStart();
    if (!this.browsers.started(browser, id)) {
      await answerFloor(started);
      return otherBrowser(lang, 400);
    }
    const outcome = await this.createAccount(id, body.code, browser.ip);
    if (outcome.kind === 'refused') {
      await answerFloor(started);
      return this.renderCode(lang, interaction, browser, 400, id, undefined, WRONG_CODE);
    }
    if (outcome.kind === 'taken') {
      const { t } = lang.translator();
      const html = linkPage(
        lang,
        t('signUp.notCreatedTitle'),
        t('signUp.notCreated'),
        this.startAgain(t, interaction),
      );
      return { status: 409, html };
    }
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

  /** Where "Start again" leads: the form of the request, or the account page's sign-in without one. */
  private startAgain(
    t: Translate,
    interaction: Interaction | null,
  ): { href: string; text: string } {
    return interaction
      ? { href: this.interactions.path(SIGN_UP_PATH, interaction), text: t('common.startAgain') }
      : { href: '/account/login', text: t('common.signIn') };
  }

  /** The form's rules, in the order the page reports them; the address as stored. */
  private async check(form: SignUpForm): Promise<FormCheck> {
    const refused = (status: number, error: Text): FormCheck => ({
      kind: 'refused',
      status,
      error,
    });
    if (!isValidUsername(form.username)) return refused(400, msg('signUp.usernameRule'));
    const email = normalEmail(form.email);
    if (email === null) return refused(400, msg('signUp.emailRule'));
    const weakness = await passwordWeakness(form.password, { username: form.username, email });
    if (weakness !== null) return refused(400, passwordProblemText(weakness));
    // A sign-up form must say that a username is taken (docs/accounts.md, "Sign-up").
    if (await this.usernameTaken(this.dataSource.manager, form.username)) {
      return refused(409, msg('signUp.usernameTaken', { username: form.username }));
    }
    return { kind: 'ok', email };
  }

  /** The scrypt hash, computed in the sign-ins' bounded queue; null when the queue is full. */
  private async hash(password: string, clientAddress: string): Promise<string | null> {
    try {
      return await this.queue.run(clientAddress, () =>
        hashPassword(password, this.config.passwordHashCost),
      );
    } catch (error) {
      if (error instanceof PasswordQueueFull) return null;
      throw error;
    }
  }

  /** The request, when sign-up is offered for it; a 404 page otherwise. */
  private async offered(requestId: unknown, lang: PageLanguage): Promise<Interaction> {
    if (!this.config.signUpEnabled) throw notOffered();
    const interaction = await this.interactions.find(requestId, lang);
    await this.checkOffered(interaction);
    return interaction;
  }

  /**
   * The code pages' request: live and offering sign-up (404 otherwise), or null once it expired
   * or was answered, since a code sent while it was live still creates the account.
   */
  private async offeredOrExpired(
    requestId: unknown,
    lang: PageLanguage,
  ): Promise<Interaction | null> {
    if (!this.config.signUpEnabled) throw notOffered();
    const interaction = await this.interactions.findLive(requestId, lang);
    if (interaction) await this.checkOffered(interaction);
    return interaction;
  }

  private async checkOffered(interaction: Interaction): Promise<void> {
    if (!this.config.signUpEnabled) throw notOffered();
    const enabled = await this.upstreamProviders.listEnabled();
    const password = offeredSignIn(interaction.pending.request.upstreamProviders, enabled).password;
    if (!signUpOffered(this.config, interaction.application, password)) throw notOffered();
  }

  private async sendCode(
    interaction: Interaction,
    email: string,
    payload: SignUpPayload,
    clientAddress: string,
    locale: Locale,
  ): Promise<{ kind: 'sent'; id: string } | { kind: 'throttled'; retryAfterSeconds: number }> {
    const issued = await this.codes.issue({
      purpose: 'sign_up',
      email,
      userId: null,
      payload: { ...payload },
      clientAddress,
    });
    if (issued.kind === 'throttled') return issued;
    const link = this.interactions.url(SIGN_UP_CODE_PATH, interaction, {
      id: issued.id,
      code: issued.code,
    });
    await this.send(
      codeMail('sign_up', {
        to: email,
        locale,
        site: this.interactions.site,
        code: issued.code,
        link,
        applicationName: interaction.application.name,
      }),
    );
    return { kind: 'sent', id: issued.id };
  }

  /** The address has an account: tell its owner, and answer with an id that is never accepted. */
  private async sendNotice(
    interaction: Interaction,
    email: string,
    clientAddress: string,
    locale: Locale,
  ): Promise<{ kind: 'sent'; id: string } | { kind: 'throttled'; retryAfterSeconds: number }> {
    const decoy = await this.codes.decoy(email, clientAddress);
    if (decoy.kind === 'throttled') return decoy;
    await this.send(
      codeMail('sign_up_existing', {
        to: email,
        locale,
        site: this.interactions.site,
        link: this.interactions.url('/oauth2/login', interaction),
        applicationName: interaction.application.name,
      }),
    );
    return { kind: 'sent', id: decoy.id };
  }

  private async send(message: Parameters<Mailer['send']>[0]): Promise<void> {
    try {
      await this.mailer.send(message);
    } catch (error) {
      if (error instanceof MailNotSent) throw mailNotSent();
      throw error;
    }
  }

  /**
   * Spends the code and creates the account and its verified, primary email in one transaction.
   * A username or address taken since the form was sent still spends the code (the person
   * starts again); the unique indexes decide between simultaneous sign-ups.
   */
  private async createAccount(
    id: string,
    code: unknown,
    clientAddress: string,
  ): Promise<{ kind: 'created'; user: User } | { kind: 'refused' } | { kind: 'taken' }> {
    try {
      return await this.dataSource.transaction(async (manager) => {
        const outcome = await this.codes.consume(manager, 'sign_up', id, code);
        if (outcome.kind !== 'accepted') return { kind: 'refused' };
        const payload = asPayload(outcome.code.payload);
        if (payload === null) return { kind: 'refused' };
        const email = outcome.code.email;
        if (
          (await this.usernameTaken(manager, payload.username)) ||
          (await addressHeldByAnother(manager, email, null))
        ) {
          return { kind: 'taken' };
        }
        const user = await manager.getRepository(User).save({
          username: payload.username,
          email,
          emailVerified: true,
          passwordHash: payload.passwordHash,
          lastLoginAt: this.clock.now(),
        });
        await manager
          .getRepository(UserEmail)
          .save({ userId: user.id, email, verified: true, primary: true, visibility: 'public' });
        // Who created which account, from where: like a password reset, audited with no application.
        await this.audit.record(
          {
            applicationId: null,
            actorUserId: user.id,
            action: 'user.sign_up',
            target: `user:${user.id}`,
            details: { via: 'sign_up' },
            ip: clientAddress,
          },
          manager,
        );
        return { kind: 'created', user: await manager.findOneByOrFail(User, { id: user.id }) };
      });
    } catch (error) {
      if (claimsNameOrAddress(error)) return { kind: 'taken' };
      throw error;
    }
  }

  /** Usernames are unique regardless of case (uq_users_lower_username). */
  private async usernameTaken(manager: EntityManager, username: string): Promise<boolean> {
    const rows = await manager.query<unknown[]>(
      'SELECT 1 FROM users WHERE lower(username) = lower($1)',
      [username],
    );
    return rows.length > 0;
  }

  private renderForm(
    lang: PageLanguage,
    interaction: Interaction,
    browser: BrowserContext,
    status: number,
    error?: Text,
    form?: SignUpForm,
  ): PageResult {
    const { token, cookies } = this.interactions.form(browser, interaction);
    const html = signUpPage(lang, {
      applicationName: interaction.application.name,
      requestId: interaction.pending.sealed,
      csrfToken: token,
      username: form?.username,
      email: form?.email,
      error,
      loginUrl: this.interactions.path('/oauth2/login', interaction),
    });
    return { status, html, cookies };
  }

  private renderCode(
    lang: PageLanguage,
    interaction: Interaction | null,
    browser: BrowserContext,
    status: number,
    id: string,
    code?: string,
    error?: Text,
  ): PageResult {
    // Bound to the code, not to the request: the code still counts once the request expired.
    const { token, cookies } = this.interactions.formFor(browser, codeFormPurpose(id));
    const { t, rich } = lang.translator();
    const lead = interaction
      ? rich('signUp.codeLeadFor', { application: interaction.application.name }, BOLD)
      : html`${t('signUp.codeLead')}`;
    const page = codePage(lang, {
      action: SIGN_UP_CODE_PATH,
      title: t('code.checkEmailTitle'),
      lead: html`<p>${lead}</p>`,
      requestId: interaction?.pending.sealed ?? '',
      csrfToken: token,
      id,
      code,
      error,
      again: this.startAgain(t, interaction),
    });
    // The form may lead straight on to the client (CSP form-action follows redirects).
    const formTarget = interaction
      ? cspSourceOf(interaction.pending.request.redirectUri)
      : undefined;
    return { status, html: page, cookies, formTarget };
  }
}

/** The CSRF purpose of a sign-up code's form. */
function codeFormPurpose(id: string): string {
  return `sign-up-code:${id}`;
}

function readForm(body: Params): SignUpForm {
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  return {
    username: text(body.username).trim(),
    email: text(body.email).trim(),
    password: text(body.password),
  };
}

function asPayload(value: Record<string, unknown> | null): SignUpPayload | null {
  return typeof value?.username === 'string' && typeof value.passwordHash === 'string'
    ? { username: value.username, passwordHash: value.passwordHash }
    : null;
}

function notOffered(): PageError {
  return new PageError(404, msg('errors.notFoundTitle'), msg('signUp.notOffered'));
}

/**
 * The code page in a browser that did not submit the form: where to enter the code, no form.
 * It says the same whatever the id, real or decoy, live or spent.
 */
function otherBrowser(lang: PageLanguage, status: number): PageResult {
  const { t } = lang.translator();
  return {
    status,
    html: messagePage(lang, t('signUp.otherBrowserTitle'), t('signUp.otherBrowser')),
  };
}

function busy(lang: PageLanguage): PageResult {
  const { t } = lang.translator();
  return {
    status: 503,
    html: messagePage(lang, t('errors.busyTitle'), t('login.refused.busy')),
    retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS,
  };
}
