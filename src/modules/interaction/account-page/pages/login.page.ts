import { html, Html } from '../../../../common/http/html';
import type { Text } from '../../../../common/i18n/i18n';
import type { PageLanguage } from '../../../../common/i18n/page-language';
import { usernameAndPassword } from '../../authorization-pages/pages/login.page';
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
  error?: Text;
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
export function accountLoginPage(lang: PageLanguage, model: AccountLoginModel): string {
  const { t } = lang.translator();
  const links: Html[] = [
    [model.links.forgotPassword, t('account.login.forgotPassword')],
    [model.links.createAccount, t('account.login.createAccount')],
  ].flatMap(([href, text]) => (href ? [html`<li><a href="${href}">${text!}</a></li>`] : []));
  return accountLayout(lang, {
    title: t('account.login.title'),
    width: 'narrow',
    body: html`<h1>${t('account.login.title')}</h1>
      ${formError(t, model.error)}
      <form method="post" action="/account/login">
        <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
        ${usernameAndPassword(t, model.username, true)}
        <button type="submit">${t('login.submit')}</button>
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
