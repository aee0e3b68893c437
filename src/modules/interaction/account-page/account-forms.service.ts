import { Injectable } from '@nestjs/common';
import type { MessageKey } from '../../../common/i18n/i18n';
import { formExpired } from '../../pages/page-error';
import type { PageResult } from '../../pages/page-result';
import { type Params } from '../../../common/http/params';
import type { BrowserContext } from '../../sessions/cookies';
import { Csrf } from '../../sessions/csrf';
import { SessionService, type CurrentSession } from '../../sessions/session.service';
import type { AccountForm } from './pages/account.page';

export const LOGIN_PAGE = '/account/login';
export const ACCOUNT_PAGE = '/account';

/**
 * The notices of `?done=` after a change (the forms' redirects, the script's reloads, the
 * provider's return): fixed texts, so the query string never puts words on the page.
 */
export const NOTICES: Record<string, MessageKey> = {
  profile: 'account.notice.profile',
  password: 'account.notice.password',
  revoked: 'account.notice.revoked',
  passkey_added: 'account.notice.passkeyAdded',
  passkey_removed: 'account.notice.passkeyRemoved',
  upstream_connected: 'account.notice.upstreamConnected',
  upstream_disconnected: 'account.notice.upstreamDisconnected',
  email_verified: 'account.notice.emailVerified',
};

/** A form of /account, or the code form of the email verification page. */
export type FormPurpose = AccountForm | 'email_confirm';

/**
 * What every form of the signed-in account page checks first: the browser's session, and a
 * CSRF token bound to that session and to the form's purpose. The services of the page's
 * sections (sign-in, profile, addresses, password, applications) share it.
 */
@Injectable()
export class AccountFormsService {
  constructor(
    private readonly sessions: SessionService,
    private readonly csrf: Csrf,
  ) {}

  /**
   * A form of the signed-in page: no session → the sign-in page (nothing is done); a token
   * that is not this session's for this form → 403; otherwise `work`.
   */
  async withSession(
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

  /** The form's token of this browser for `purpose`, or the 403 page. */
  checkCsrf(browser: BrowserContext, purpose: FormPurpose, token: unknown): void {
    if (!this.csrf.verify(browser, `account:${purpose}`, token)) throw formExpired();
  }
}

/** The redirect after a change: the account page with its notice. */
export function done(notice: keyof typeof NOTICES): PageResult {
  return { status: 303, location: `${ACCOUNT_PAGE}?done=${notice}` };
}
