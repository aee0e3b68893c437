import { html, Html } from '../../../../common/http/html';
import { usernameAndPassword } from '../../../oauth/interaction/pages/login.page';
import { accountLayout, formError } from './account-layout';

/** Where the optional links under the sign-in form lead (other account features). */
export interface AccountLoginLinks {
  /** "Forgot password?" */
  forgotPassword?: string;
  /** "Create an account" */
  createAccount?: string;
}

export interface AccountLoginModel {
  csrfToken: string;
  username?: string;
  error?: string;
  /**
   * "Sign in with a passkey": the OAuth login page's passkey form and script
   * (passkeySignInForm), pointed at this page's routes; the page then answers with ownScript.
   */
  passkey: Html;
  links: AccountLoginLinks;
}

/**
 * GET /account/login: username or email and password (inputs `username`, `password`, hidden
 * `csrf_token`), posted to /account/login; then passkey sign-in (with its autofill in the
 * username field) and the links, when set.
 */
export function accountLoginPage(model: AccountLoginModel): string {
  const links: Html[] = [
    [model.links.forgotPassword, 'Forgot password?'],
    [model.links.createAccount, 'Create an account'],
  ].flatMap(([href, text]) => (href ? [html`<li><a href="${href}">${text!}</a></li>`] : []));
  return accountLayout({
    title: 'Sign in to your account',
    width: 'narrow',
    body: html`<h1>Sign in to your account</h1>
      ${formError(model.error)}
      <form method="post" action="/account/login">
        <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
        ${usernameAndPassword(model.username, true)}
        <button type="submit">Sign in</button>
      </form>
      ${model.passkey}
      ${
        links.length > 0
          ? html`<ul class="muted">
              ${links}
            </ul>`
          : html``
      }`,
  });
}
