import { LOGIN_PATH } from '../../../oauth/authorize/login-location';
import { layout } from '../../../pages/page-shell';
import { html, Html } from '../../../../common/http/html';
import { BOLD, render, type Text, type Translate } from '../../../../common/i18n/i18n';
import type { PageLanguage } from '../../../../common/i18n/page-language';
import { passkeySignInForm } from '../../../passkeys/sign-in/passkey-sign-in-form';

export interface LoginPageProvider {
  displayName: string;
  /** GET /api/auth/upstream/{id}/start?request=… (a link: the page works without JavaScript). */
  startUrl: string;
}

export interface LoginPageModel {
  applicationName: string;
  requestId: string;
  csrfToken: string;
  username?: string;
  error?: Text;
  /** False when upstream_providers leaves the password form out. */
  passwordLogin: boolean;
  /** Offer "Sign in with a passkey" (and passkeys in the username's autofill) with the form. */
  passkeyLogin: boolean;
  providers: LoginPageProvider[];
  /** GET /oauth2/signup?request=…, when sign-up is offered (docs/accounts.md, "Sign-up"). */
  signUpUrl?: string;
}

/**
 * The login form (contract for automated clients: inputs `username` and `password`, hidden
 * `request` and `csrf_token`) with its "Forgot your password?" link (docs/accounts.md), passkey
 * sign-in beside it (a second form, shown by its script), and one link per upstream provider the
 * request allows.
 */
export function loginPage(lang: PageLanguage, model: LoginPageModel): string {
  const { t, rich } = lang.translator();
  const error = model.error
    ? html`<p class="error" role="alert">${render(model.error, t)}</p>`
    : html``;
  const providers: Html[] = model.providers.map(
    (provider) =>
      html`<li>
        <a class="button secondary" href="${provider.startUrl}"
          >${t('login.signInWith', { provider: provider.displayName })}</a
        >
      </li>`,
  );
  const upstream =
    providers.length > 0
      ? html`${model.passwordLogin ? html`<p class="muted">${t('login.orSignInWith')}</p>` : html``}
          <ul class="providers">
            ${providers}
          </ul>`
      : html``;
  const passkey = model.passkeyLogin;
  const form = model.passwordLogin
    ? html`<form method="post" action="${LOGIN_PATH}">
        <input type="hidden" name="request" value="${model.requestId}" />
        <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
        ${usernameAndPassword(t, model.username, passkey)}
        <button type="submit">${t('login.submit')}</button>
      </form>`
    : html``;
  const passkeyForm = passkey
    ? passkeySignInForm(t, {
        action: `${LOGIN_PATH}/passkey`,
        optionsUrl: `${LOGIN_PATH}/passkey/options`,
        fields: { request: model.requestId, csrf_token: model.csrfToken },
      })
    : html``;
  const signUpUrl = model.signUpUrl ?? '';
  const signUp = model.signUpUrl
    ? html`<p class="muted">
        ${rich('login.newHere', {}, { a: (text) => html`<a href="${signUpUrl}">${text}</a>` })}
      </p>`
    : html``;
  const forgot = model.passwordLogin
    ? html`<p>
        <a href="/oauth2/forgot-password?request=${encodeURIComponent(model.requestId)}"
          >${t('login.forgotPassword')}</a
        >
      </p>`
    : html``;
  return layout(
    lang,
    t('login.title'),
    html`<p>${rich('common.continueTo', { application: model.applicationName }, BOLD)}</p>
      ${error} ${form} ${forgot} ${passkeyForm} ${upstream} ${signUp}`,
  );
}

/**
 * The username-or-email and password inputs of a sign-in form (this page's and the account
 * page's): the names `username` and `password` are the contract for automated clients; with
 * passkeys offered the username also lists them in its autofill (WebAuthn conditional UI).
 */
export function usernameAndPassword(
  t: Translate,
  username: string | undefined,
  passkeyAutofill: boolean,
): Html {
  return html`<label for="username">${t('login.usernameOrEmail')}</label>
    <input
      type="text"
      id="username"
      name="username"
      autocomplete="${passkeyAutofill ? 'username webauthn' : 'username'}"
      required
      value="${username ?? ''}"
    />
    <label for="password">${t('login.password')}</label>
    <input
      type="password"
      id="password"
      name="password"
      autocomplete="current-password"
      required
    />`;
}
