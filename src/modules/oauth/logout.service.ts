import { Injectable } from '@nestjs/common';
import { Csrf } from './csrf';
import { PageError } from './oauth-error';
import { SESSION_COOKIE, type BrowserContext, type PageResult } from './page-result';
import { messagePage } from './pages/html';
import { logoutPage } from './pages/logout.page';
import { SessionService } from './session.service';
import type { Params } from './steps/params';

/**
 * What the logout CSRF token is bound to besides the browser cookie. Request ids are 256-bit
 * random values, so this constant can never be one of them: a login or consent token is never
 * a logout token, nor the reverse.
 */
const LOGOUT_PURPOSE = 'logout';

/**
 * GET /oauth2/logout shows a sign-out form; POST /oauth2/logout ends the session only with the
 * form's CSRF token, so another site cannot sign the user out (login CSRF's twin). A client
 * signs its user out by sending the browser to GET /oauth2/logout (docs/oauth.md).
 */
@Injectable()
export class LogoutService {
  constructor(
    private readonly sessions: SessionService,
    private readonly csrf: Csrf,
  ) {}

  show(browser: BrowserContext): PageResult {
    const { browserValue, cookies } = this.csrf.browserValue(browser);
    return {
      status: 200,
      html: logoutPage(this.csrf.tokenFor(browserValue, LOGOUT_PURPOSE)),
      cookies,
    };
  }

  async submit(body: Params, browser: BrowserContext): Promise<PageResult> {
    if (!this.csrf.verify(browser.csrfCookie, LOGOUT_PURPOSE, body.csrf_token)) {
      throw new PageError(
        403,
        'Form expired',
        'The sign-out form could not be verified. Open the sign-out page and try again.',
      );
    }
    await this.sessions.destroy(browser.sessionCookie);
    return {
      status: 200,
      html: messagePage('Signed out', 'You are signed out.'),
      cookies: [{ name: SESSION_COOKIE, value: '', maxAge: 0 }],
    };
  }
}
