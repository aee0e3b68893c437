import { layout } from '../../pages/page-shell';
import { html, type Html } from '../../../common/http/html';
import { BOLD, type Text, type Translate } from '../../../common/i18n/i18n';
import type { PageLanguage } from '../../../common/i18n/page-language';
import { errorBox, type FormBinding } from '../account-pages';

/**
 * How an account without an email steps up before a code goes to the address it types (the
 * account page's rule, StepUp): its current password, or a sign-in within the last 5 minutes;
 * past them, the login page of the same request (`signInUrl`).
 */
export type AddressStepUp =
  { kind: 'password' } | { kind: 'recent_sign_in'; open: boolean; signInUrl: string };

export interface VerifyEmailPageModel extends FormBinding {
  applicationName: string;
  username: string;
  /** The account's email; empty when it has none (the page then asks for one). */
  email: string;
  /** When `email` is empty: the step-up adding an address takes. */
  stepUp?: AddressStepUp;
  /** What the person typed, shown again after a refusal. */
  typedEmail?: string;
  error?: Text;
}

/**
 * The application requires a verified email (form contract: POST /oauth2/verify-email with
 * hidden `request` and `csrf_token`; when the account has no email, input `email`, and
 * `current_password` when the account has a password). An account without an email and without
 * a password whose sign-in is older than 5 minutes gets no form: a link to sign in again, which
 * comes back here with the same request.
 */
export function verifyEmailPage(lang: PageLanguage, model: VerifyEmailPageModel): string {
  const { t, rich } = lang.translator();
  const lead = html`<p>
      ${rich(
        'verifyEmail.lead',
        { application: model.applicationName, username: model.username },
        BOLD,
      )}
    </p>
    ${errorBox(t, model.error)}`;
  const stepUp = model.email === '' ? model.stepUp : undefined;
  if (stepUp?.kind === 'recent_sign_in' && !stepUp.open) {
    return layout(
      lang,
      t('verifyEmail.title'),
      html`${lead}
        <p>${t('verifyEmail.signInAgainLead')}</p>
        <p><a href="${stepUp.signInUrl}">${t('verifyEmail.signInAgain')}</a></p>`,
    );
  }
  const address =
    model.email !== ''
      ? html`<p>${rich('verifyEmail.sendTo', { email: model.email }, BOLD)}</p>`
      : html`<label for="email">${t('verifyEmail.email')}</label>
          <input
            type="email"
            id="email"
            name="email"
            autocomplete="email"
            required
            maxlength="254"
            value="${model.typedEmail ?? ''}"
          />
          ${stepUp?.kind === 'password' ? passwordField(t) : html``}`;
  return layout(
    lang,
    t('verifyEmail.title'),
    html`${lead}
      <form method="post" action="/oauth2/verify-email">
        <input type="hidden" name="request" value="${model.requestId}" />
        <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
        ${address}
        <button type="submit">${t('verifyEmail.submit')}</button>
      </form>`,
  );
}

/** A new address is a new way into the account (a password reset): it takes the password. */
function passwordField(t: Translate): Html {
  return html`<label for="current-password">${t('verifyEmail.currentPassword')}</label>
    <input
      type="password"
      id="current-password"
      name="current_password"
      autocomplete="current-password"
      required
    />
    <p class="hint">${t('verifyEmail.currentPasswordHint')}</p>`;
}
