import { layout } from '../../pages/page-shell';
import { html } from '../../../common/http/html';
import { BOLD, type Text } from '../../../common/i18n/i18n';
import type { PageLanguage } from '../../../common/i18n/page-language';
import { errorBox, type FormBinding } from '../account-pages';

export const SIGN_UP_PATH = '/oauth2/signup';
export const SIGN_UP_CODE_PATH = '/oauth2/signup/verify';

export interface SignUpPageModel extends FormBinding {
  applicationName: string;
  /** What the person typed, shown again after a refusal (never the password). */
  username?: string;
  email?: string;
  error?: Text;
  /** GET /oauth2/login?request=… */
  loginUrl: string;
}

/**
 * The sign-up form (form contract: inputs `username`, `email`, `password`; hidden `request` and
 * `csrf_token`), with the autocomplete tokens that let a password manager save the new account.
 */
export function signUpPage(lang: PageLanguage, model: SignUpPageModel): string {
  const { t, rich } = lang.translator();
  return layout(
    lang,
    t('signUp.title'),
    html`<p>${rich('common.continueTo', { application: model.applicationName }, BOLD)}</p>
      ${errorBox(t, model.error)}
      <form method="post" action="/oauth2/signup">
        <input type="hidden" name="request" value="${model.requestId}" />
        <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
        <label for="username">${t('signUp.username')}</label>
        <input
          type="text"
          id="username"
          name="username"
          autocomplete="username"
          autocapitalize="none"
          spellcheck="false"
          required
          minlength="3"
          maxlength="64"
          value="${model.username ?? ''}"
          aria-describedby="username-hint"
        />
        <p class="hint" id="username-hint">${t('signUp.usernameHint')}</p>
        <label for="email">${t('signUp.email')}</label>
        <input
          type="email"
          id="email"
          name="email"
          autocomplete="email"
          required
          maxlength="254"
          value="${model.email ?? ''}"
          aria-describedby="email-hint"
        />
        <p class="hint" id="email-hint">${t('signUp.emailHint')}</p>
        <label for="password">${t('signUp.password')}</label>
        <input
          type="password"
          id="password"
          name="password"
          autocomplete="new-password"
          required
          minlength="8"
          maxlength="256"
          aria-describedby="password-hint"
        />
        <p class="hint" id="password-hint">${t('signUp.passwordHint')}</p>
        <button type="submit">${t('signUp.submit')}</button>
      </form>
      <p class="muted">
        ${rich('signUp.haveAccount', {}, { a: (text) => html`<a href="${model.loginUrl}">${text}</a>` })}
      </p>`,
  );
}
