import { Injectable } from '@nestjs/common';
import { Csrf } from '../../sessions/csrf';
import {
  EndSessionService,
  type EndSessionRequest,
  type ReturnLink,
} from '../../oauth/end-session/end-session.service';
import { PageError } from '../../pages/page-error';
import { CLEAR_SESSION, type BrowserContext } from '../../sessions/cookies';
import { cspSourceOf, type PageResult } from '../../pages/page-result';
import { logoutPage, signedOutPage } from './pages/logout.page';
import { SessionService } from '../../sessions/session.service';
import { type Params } from '../../../common/http/params';
import { msg } from '../../../common/i18n/i18n';
import type { PageLanguage } from '../../../common/i18n/page-language';

/**
 * What the logout CSRF token is bound to besides the browser cookie. Request ids are 256-bit
 * random values, so this constant can never be one of them: a login or consent token is never
 * a logout token, nor the reverse.
 */
const LOGOUT_PURPOSE = 'logout';

/** The parameters that make a POST an RP-initiated logout request rather than the form. */
const END_SESSION_PARAMS = ['id_token_hint', 'post_logout_redirect_uri', 'client_id', 'state'];

/**
 * /oauth2/logout, the end_session_endpoint (OpenID Connect RP-Initiated Logout 1.0; docs/oidc.md).
 * A valid id_token_hint naming the signed-in user signs out at once and is the only request that
 * is redirected to the post_logout_redirect_uri without a page: anyone's id_token (even an
 * expired one) is easy to come by, so a hint alone must not make this endpoint a redirector for
 * visitors it does not know. With a hint and nobody signed in, the answer is the "Signed out"
 * page with a link to the application. Otherwise (no hint, or a hint naming another user) the
 * user confirms with a form whose POST needs its CSRF token, so another site cannot sign the
 * user out (login CSRF's twin), and then gets the same page and link. The validated link travels
 * in the form sealed, so the form cannot be made to lead anywhere else.
 */
@Injectable()
export class LogoutService {
  constructor(
    private readonly sessions: SessionService,
    private readonly csrf: Csrf,
    private readonly endSession: EndSessionService,
  ) {}

  /** GET (and an RP's POST, section 2): validate, then sign out or ask. */
  async show(
    params: Params,
    lang: PageLanguage,
    browser: BrowserContext,
    status: 302 | 303 = 302,
  ): Promise<PageResult> {
    // RP-Initiated Logout 1.0 section 2: ui_locales chooses this page's language.
    lang.useUiLocales(params.ui_locales);
    const request = await this.endSession.validate(params);
    const link = returnLink(request);
    if (request.hintSubject !== undefined) {
      const current = await this.sessions.current(browser.sessionCookie);
      // Section 2: the hint names the End-User; when that is who is signed in, no need to ask,
      // and the client it was issued to gets its user back (section 3).
      if (current !== null && current.user.id === request.hintSubject) {
        await this.signOut(browser);
        return this.redirect(lang, link, status);
      }
      // Nobody to sign out: say so, and let the visitor choose to follow the link.
      if (current === null) {
        await this.signOut(browser); // an expired session's row, if any
        return this.signedOut(lang, link);
      }
    }
    // Section 2: without a hint, or with another user's, the OP must ask; the session stays.
    return this.confirmation(lang, browser, link);
  }

  async submit(body: Params, lang: PageLanguage, browser: BrowserContext): Promise<PageResult> {
    if (body.csrf_token === undefined && END_SESSION_PARAMS.some((name) => name in body)) {
      return this.show(body, lang, browser, 303);
    }
    // The confirmation form carries the language the request's ui_locales chose (section 2).
    lang.useUiLocales(body.ui_locales);
    if (!this.csrf.verify(browser, LOGOUT_PURPOSE, body.csrf_token)) {
      throw new PageError(403, msg('errors.formExpiredTitle'), msg('errors.logoutFormExpired'));
    }
    let link: ReturnLink | undefined;
    if (body.logout_request !== undefined) {
      link = this.endSession.open(body.logout_request) ?? undefined;
      if (link === undefined) {
        throw new PageError(
          400,
          msg('errors.requestExpiredTitle'),
          msg('errors.logoutRequestExpired'),
        );
      }
    }
    await this.signOut(browser);
    // The user confirmed on our page; the application is a link, not a redirect.
    return this.signedOut(lang, link);
  }

  private confirmation(
    lang: PageLanguage,
    browser: BrowserContext,
    link: ReturnLink | undefined,
  ): PageResult {
    const { token, cookies } = this.csrf.issue(browser, LOGOUT_PURPOSE);
    const sealed = link === undefined ? undefined : this.endSession.seal(link);
    return { status: 200, html: logoutPage(lang, token, sealed), cookies };
  }

  /** Deletes the session row; tokens issued to clients are not touched. */
  private async signOut(browser: BrowserContext): Promise<void> {
    await this.sessions.destroy(browser.sessionCookie);
  }

  /** The "Signed out" page (with the link to the application, if any); the cookie cleared. */
  private signedOut(lang: PageLanguage, link: ReturnLink | undefined): PageResult {
    return { status: 200, html: signedOutPage(lang, link), cookies: [CLEAR_SESSION] };
  }

  private redirect(
    lang: PageLanguage,
    link: ReturnLink | undefined,
    status: 302 | 303,
  ): PageResult {
    if (link === undefined) return this.signedOut(lang, undefined);
    const { redirectTo } = link;
    return {
      status,
      location: redirectTo,
      cookies: [CLEAR_SESSION],
      formTarget: cspSourceOf(redirectTo),
    };
  }
}

function returnLink(request: EndSessionRequest): ReturnLink | undefined {
  const { redirectTo, applicationName } = request;
  return redirectTo === undefined ? undefined : { redirectTo, applicationName };
}
