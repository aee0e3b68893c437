import { Injectable } from '@nestjs/common';
import { Csrf } from './csrf';
import { EndSessionService } from './end-session.service';
import { PageError } from './oauth-error';
import { cspSourceOf, type BrowserContext, type PageResult } from './page-result';
import { messagePage } from './pages/html';
import { logoutPage } from './pages/logout.page';
import { SessionService } from './session.service';
import type { Params } from './steps/params';

/**
 * What the logout CSRF token is bound to besides the browser's cookies. Request ids are 256-bit
 * random values, so this constant can never be one of them: a login or consent token is never
 * a logout token, nor the reverse.
 */
const LOGOUT_PURPOSE = 'logout';

/** The parameters that make a POST an RP-initiated logout request rather than the form. */
const END_SESSION_PARAMS = ['id_token_hint', 'post_logout_redirect_uri', 'client_id', 'state'];

/**
 * /oauth2/logout, the end_session_endpoint (OpenID Connect RP-Initiated Logout 1.0; docs/oidc.md).
 * A valid id_token_hint naming the signed-in user (or nobody signed in) signs out at once;
 * otherwise the user confirms with a form whose POST needs its CSRF token, so another site
 * cannot sign the user out (login CSRF's twin). The validated post_logout_redirect_uri travels
 * in the form sealed, so the form cannot be made to redirect anywhere else.
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
    browser: BrowserContext,
    status: 302 | 303 = 302,
  ): Promise<PageResult> {
    const request = await this.endSession.validate(params);
    if (request.hintSubject !== undefined) {
      const current = await this.sessions.current(browser.sessionCookie);
      // Section 2: the hint names the End-User; when that is who is signed in, no need to ask.
      if (current === null || current.user.id === request.hintSubject) {
        return this.signOut(browser, request.redirectTo, status);
      }
    }
    return this.confirmation(browser, request.redirectTo);
  }

  async submit(body: Params, browser: BrowserContext): Promise<PageResult> {
    if (body.csrf_token === undefined && END_SESSION_PARAMS.some((name) => name in body)) {
      return this.show(body, browser, 303);
    }
    if (!this.csrf.verify(browser, LOGOUT_PURPOSE, body.csrf_token)) {
      throw new PageError(
        403,
        'Form expired',
        'The sign-out form could not be verified. Open the sign-out page and try again.',
      );
    }
    let redirectTo: string | undefined;
    if (body.logout_request !== undefined) {
      redirectTo = this.endSession.open(body.logout_request) ?? undefined;
      if (redirectTo === undefined) {
        throw new PageError(
          400,
          'Request expired',
          'This sign-out request has expired. Return to the application and sign out again.',
        );
      }
    }
    return this.signOut(browser, redirectTo, 303);
  }

  private confirmation(browser: BrowserContext, redirectTo: string | undefined): PageResult {
    const { token, cookies } = this.csrf.issue(browser, LOGOUT_PURPOSE);
    if (redirectTo === undefined) return { status: 200, html: logoutPage(token), cookies };
    return {
      status: 200,
      html: logoutPage(token, this.endSession.seal(redirectTo)),
      cookies,
      // CSP form-action also governs the redirect that answers the form.
      formTarget: cspSourceOf(redirectTo),
    };
  }

  /** Deletes the session row and clears the cookie; tokens issued to clients are not touched. */
  private async signOut(
    browser: BrowserContext,
    redirectTo: string | undefined,
    status: 302 | 303,
  ): Promise<PageResult> {
    await this.sessions.destroy(browser.sessionCookie);
    const cookies = [{ name: 'session' as const, value: '', maxAge: 0 }];
    if (redirectTo === undefined) {
      return { status: 200, html: messagePage('Signed out', 'You are signed out.'), cookies };
    }
    return { status, location: redirectTo, cookies, formTarget: cspSourceOf(redirectTo) };
  }
}
