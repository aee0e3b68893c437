import { Injectable } from '@nestjs/common';
import { msg, type Text } from '../../../common/i18n/i18n';
import type { PageLanguage } from '../../../common/i18n/page-language';
import { PasskeyList } from '../../passkeys/passkey-list';
import type { PageResult } from '../../pages/page-result';
import type { BrowserContext } from '../../sessions/cookies';
import { Csrf } from '../../sessions/csrf';
import { SessionService, type CurrentSession } from '../../sessions/session.service';
import { UpstreamIdentitiesService } from '../../upstreams/identities/upstream-identities.service';
import { UpstreamProvidersService } from '../../upstreams/providers/upstream-providers.service';
import type { ProfileProblems } from '../../users/profile';
import { UsersService } from '../../users/users.service';
import { StepUp, type StepUpMethod } from '../step-up/step-up';
import { AccountApplicationsService } from './account-applications.service';
import { LOGIN_PAGE, NOTICES } from './account-forms.service';
import { ACCOUNT_FORMS, accountPage, type AccountPageModel } from './pages/account.page';

/** How many sign-ins the page lists. */
export const RECENT_SIGN_INS_SHOWN = 20;

/** What one rendering of the account page changes from the stored state. */
export interface RenderOptions {
  notice?: Text;
  profile?: { nickname: string; avatar: string; problems: ProfileProblems };
  passwordError?: Text;
  /** A refused "Send a verification code", with the address typed. */
  email?: { error: Text; typed: string };
}

/**
 * The signed-in account page itself (docs/accounts.md, "The account page"): GET /account, and
 * the page shown again with a form's refusal. It lists the profile, the addresses, the
 * password, passkeys, connected accounts, authorized applications and recent sign-ins (passkeys
 * and connected accounts are changed by its script through the console API), and issues each
 * form's CSRF token.
 */
@Injectable()
export class AccountViewService {
  constructor(
    private readonly sessions: SessionService,
    private readonly csrf: Csrf,
    private readonly users: UsersService,
    private readonly passkeys: PasskeyList,
    private readonly identities: UpstreamIdentitiesService,
    private readonly providers: UpstreamProvidersService,
    private readonly applications: AccountApplicationsService,
    private readonly stepUp: StepUp,
  ) {}

  /** GET /account: the page, with the notice of `done` when it names one. */
  async show(lang: PageLanguage, browser: BrowserContext, done: unknown): Promise<PageResult> {
    const current = await this.sessions.current(browser.sessionCookie);
    if (!current) return { status: 302, location: LOGIN_PAGE };
    const notice =
      typeof done === 'string' && Object.hasOwn(NOTICES, done) ? msg(NOTICES[done]) : undefined;
    return this.render(lang, current, browser, 200, notice ? { notice } : {});
  }

  /** The page of `current`'s user, with `status` and what `options` changes. */
  async render(
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
      this.passkeys.of(user.id),
      this.identities.listForUser(user.id),
      this.providers.listEnabled(),
      this.applications.authorizedApplications(user.id),
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
}

/** An account without a password within 5 minutes of a primary sign-in (it may set one now). */
function isOpenWindow(method: StepUpMethod): boolean {
  return method.kind === 'recent_sign_in' && method.open;
}
