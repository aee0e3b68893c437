import { html, layout } from '../../../common/http/html';
import { BOLD, type Text } from '../../../common/i18n/i18n';
import type { PageLanguage } from '../../../common/i18n/page-language';
import { errorBox, type FormBinding } from '../account-pages';

export interface VerifyEmailPageModel extends FormBinding {
  applicationName: string;
  username: string;
  /** The account's email; empty when it has none (the page then asks for one). */
  email: string;
  /** What the person typed, shown again after a refusal. */
  typedEmail?: string;
  error?: Text;
}

/**
 * The application requires a verified email (form contract: POST /oauth2/verify-email with
 * hidden `request` and `csrf_token`, and input `email` when the account has no email).
 */
export function verifyEmailPage(lang: PageLanguage, model: VerifyEmailPageModel): string {
  const { t, rich } = lang.translator();
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
          />`;
  return layout(
    lang,
    t('verifyEmail.title'),
    html`<p>
        ${rich(
          'verifyEmail.lead',
          { application: model.applicationName, username: model.username },
          BOLD,
        )}
      </p>
      ${errorBox(t, model.error)}
      <form method="post" action="/oauth2/verify-email">
        <input type="hidden" name="request" value="${model.requestId}" />
        <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
        ${address}
        <button type="submit">${t('verifyEmail.submit')}</button>
      </form>`,
  );
}
