import { layout } from '../../pages/page-shell';
import { html, Html } from '../../../common/http/html';
import { render, type Text, type Translate } from '../../../common/i18n/i18n';
import type { PageLanguage } from '../../../common/i18n/page-language';
import { codeInput } from '../account-pages';
import { CODE_TTL_SECONDS } from '../one-time-codes/one-time-codes.service';

export interface ForgotPasswordPageModel {
  /** The sealed authorization request, when the person came from a login page. */
  requestId?: string;
  csrfToken: string;
  /** Where "Back to sign in" goes: the login page of the request, or the account page's. */
  signInUrl: string;
  email?: string;
  error?: Text;
}

/** Form contract: input `email`, hidden `csrf_token` and (from a login page) `request`. */
export function forgotPasswordPage(lang: PageLanguage, model: ForgotPasswordPageModel): string {
  const { t } = lang.translator();
  return layout(
    lang,
    t('passwordReset.forgotTitle'),
    html`<p>${t('passwordReset.forgotLead')}</p>
      ${errorLine(t, model.error)}
      <form method="post" action="/oauth2/forgot-password">
        ${requestInput(model.requestId)}
        <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
        <label for="email">${t('passwordReset.emailAddress')}</label>
        <input
          type="email"
          id="email"
          name="email"
          autocomplete="email"
          required
          value="${model.email ?? ''}"
        />
        <button type="submit">${t('passwordReset.sendCode')}</button>
      </form>
      <p><a href="${model.signInUrl}">${t('passwordReset.backToSignIn')}</a></p>`,
  );
}

export interface ResetPasswordPageModel {
  /** The code's id (from the link or the redirect). */
  id: string;
  requestId?: string;
  csrfToken: string;
  /** The code, filled in from the emailed link; the person still submits the form. */
  code?: string;
  /** Where "ask for a new code" goes (the forgot-password page, for the same request). */
  newCodeUrl: string;
  error?: Text;
}

/**
 * Form contract: inputs `code`, `password`, `password_repeat`, hidden `id`, `csrf_token` and
 * (from a login page) `request`.
 */
export function resetPasswordPage(lang: PageLanguage, model: ResetPasswordPageModel): string {
  const { t } = lang.translator();
  const newCode = html`<p>
    <a href="${model.newCodeUrl}">${t('passwordReset.askNewCode')}</a>
  </p>`;
  // The same line whether or not an account uses the address (one answer).
  const sent = t('passwordReset.codeSent', { minutes: CODE_TTL_SECONDS / 60 });
  return layout(
    lang,
    t('passwordReset.resetTitle'),
    html`<p>${sent}</p>
      ${errorLine(t, model.error)}
      <form method="post" action="/oauth2/reset-password">
        <input type="hidden" name="id" value="${model.id}" />
        ${requestInput(model.requestId)}
        <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
        ${codeInput(t, model.code)}
        <label for="password">${t('passwordReset.newPassword')}</label>
        <input type="password" id="password" name="password" autocomplete="new-password" required />
        <label for="password_repeat">${t('passwordReset.newPasswordAgain')}</label>
        <input
          type="password"
          id="password_repeat"
          name="password_repeat"
          autocomplete="new-password"
          required
        />
        <button type="submit">${t('passwordReset.setPassword')}</button>
      </form>
      ${newCode}`,
  );
}

/** After a reset whose authorization request expired meanwhile: signed in, nowhere to go on. */
export function passwordChangedPage(lang: PageLanguage): string {
  const { t } = lang.translator();
  return layout(
    lang,
    t('passwordReset.changedTitle'),
    html`<p>${t('passwordReset.changed')}</p>
      <p><a href="/account">${t('common.yourAccount')}</a></p>`,
  );
}

function errorLine(t: Translate, error: Text | undefined): Html {
  return error ? html`<p class="error" role="alert">${render(error, t)}</p>` : html``;
}

function requestInput(requestId: string | undefined): Html {
  return requestId === undefined
    ? html``
    : html`<input type="hidden" name="request" value="${requestId}" />`;
}
