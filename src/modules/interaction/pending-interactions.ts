import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { Application } from '../applications/application.entity';
import { AuthorizeService, requestGone } from '../oauth/authorize/authorize.service';
import type { AuthorizationRequest } from '../oauth/authorize/authorization-request';
import { LOGIN_PATH } from '../oauth/authorize/login-location';
import {
  PendingAuthorizationsService,
  type Pending,
} from '../oauth/authorize/pending-authorizations.service';
import { formExpired } from '../pages/page-error';
import type { PageResult } from '../pages/page-result';
import type { BrowserContext } from '../sessions/cookies';
import { Csrf, type CsrfForm } from '../sessions/csrf';
import { SessionService, type CurrentSession } from '../sessions/session.service';
import type { User } from '../users/user.entity';
import type { PageLanguage } from '../../common/i18n/page-language';

/** A pending authorization request and the application it is for. */
export interface Interaction {
  pending: Pending;
  application: Application;
}

/**
 * What the account pages of an OAuth authorization (sign-up, email verification) share with the
 * login page: the sealed request they carry, its CSRF binding, and continuing the authorization
 * once the person is signed in, exactly as after a password login (interaction.service.ts).
 */
@Injectable()
export class PendingInteractions {
  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    @InjectRepository(Application) private readonly applications: Repository<Application>,
    private readonly pending: PendingAuthorizationsService,
    private readonly authorize: AuthorizeService,
    private readonly sessions: SessionService,
    private readonly csrf: Csrf,
  ) {}

  /**
   * The request and its application; a 400 "Request expired" page when it is not live. Found,
   * the request's ui_locales (if any) sets the page's language `lang`.
   */
  async find(requestId: unknown, lang: PageLanguage): Promise<Interaction> {
    const interaction = await this.findLive(requestId, lang);
    if (!interaction) throw requestGone();
    return interaction;
  }

  /** The request and its application, or null once it has expired or been answered. */
  async findLive(requestId: unknown, lang: PageLanguage): Promise<Interaction | null> {
    const pending = await this.pending.findForPage(requestId, lang);
    if (!pending) return null;
    const application = await this.applicationOrNull(pending);
    return application ? { pending, application } : null;
  }

  /**
   * The request alone, for a page that may answer before it needs the application (a 400
   * "Request expired" page when it is not live); its ui_locales sets the page's language.
   */
  async pendingFor(requestId: unknown, lang: PageLanguage): Promise<Pending> {
    const pending = await this.pending.findForPage(requestId, lang);
    if (!pending) throw requestGone();
    return pending;
  }

  /** The request alone, or null once it has expired or been answered (a page that goes on without one). */
  pendingOrNull(requestId: unknown, lang: PageLanguage): Promise<Pending | null> {
    return this.pending.findForPage(requestId, lang);
  }

  /**
   * A new pending request for an authorization request the protocol has checked, sealed (the
   * `request` parameter of its pages).
   */
  open(request: AuthorizationRequest): string {
    return this.pending.create(request);
  }

  /** The pages of this step speak the language of the sealed request's ui_locales, if any. */
  useLanguageOf(requestId: unknown, lang: PageLanguage): void {
    this.pending.useLanguageOf(requestId, lang);
  }

  /** The application of a request found with pendingFor; "Request expired" once it is gone. */
  async applicationOf(pending: Pending): Promise<Application> {
    const application = await this.applicationOrNull(pending);
    if (!application) throw requestGone();
    return application;
  }

  /** Marks the request answered (PendingAuthorizationsService.take); false when it already was. */
  take(pending: Pending): Promise<boolean> {
    return this.pending.take(pending);
  }

  /** The application of a request, or null once it has been removed. */
  applicationOrNull(pending: Pending): Promise<Application | null> {
    return this.applications.findOneBy({ id: pending.request.applicationId });
  }

  /** The CSRF token of a form of this request shown to this browser. */
  form(browser: BrowserContext, interaction: Interaction): CsrfForm {
    return this.csrf.issue(browser, interaction.pending.id);
  }

  /** Refuses (403 page) a form this browser was not shown for this request. */
  checkForm(browser: BrowserContext, interaction: Interaction, token: unknown): void {
    this.checkFormFor(browser, interaction.pending.id, token);
  }

  /** The CSRF token of a form shown to this browser for `purpose` (not bound to a request). */
  formFor(browser: BrowserContext, purpose: string): CsrfForm {
    return this.csrf.issue(browser, purpose);
  }

  /** Refuses (403 page) a form this browser was not shown for `purpose`. */
  checkFormFor(browser: BrowserContext, purpose: string, token: unknown): void {
    if (!this.csrf.verify(browser, purpose, token)) {
      throw formExpired();
    }
  }

  /** The signed-in user of this browser, or null. */
  signedIn(browser: BrowserContext): Promise<CurrentSession | null> {
    return this.sessions.current(browser.sessionCookie);
  }

  /**
   * Starts a password session for `user` (recorded as a sign-in from `browser`) and continues
   * the authorization (a 303).
   */
  signInAndContinue(
    user: User,
    interaction: Interaction,
    browser: BrowserContext,
  ): Promise<PageResult> {
    const { application, pending } = interaction;
    return this.authorize.signInAndProceed(application, user, 'password', browser, pending, 303);
  }

  /** Continues the authorization for the signed-in user: consent, a code, or another page. */
  continue(
    signedIn: CurrentSession,
    interaction: Interaction,
    status: 302 | 303,
  ): Promise<PageResult> {
    const { application, pending } = interaction;
    return this.authorize.proceed(application, signedIn, pending.request, pending, status);
  }

  /** The login page of this request (where a person goes back to sign in). */
  loginPath(interaction: Interaction): string {
    return this.path(LOGIN_PATH, interaction);
  }

  /** A path of this request's pages, e.g. `/oauth2/signup`, with `request` and `extra` in its query. */
  path(page: string, interaction: Interaction, extra: Record<string, string> = {}): string {
    const query = new URLSearchParams({ request: interaction.pending.sealed, ...extra });
    return `${page}?${query.toString()}`;
  }

  /** The same, as an absolute URL (for an email). */
  url(page: string, interaction: Interaction, extra: Record<string, string> = {}): string {
    return `${this.config.publicBaseUrl}${this.path(page, interaction, extra)}`;
  }

  /** The host people know the service by, as the emails name it. */
  get site(): string {
    return new URL(this.config.publicBaseUrl).host;
  }
}
