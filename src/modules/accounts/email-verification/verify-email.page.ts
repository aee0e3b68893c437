import { html, layout } from '../../../common/http/html';
import { errorBox, type FormBinding } from '../account-pages';

export interface VerifyEmailPageModel extends FormBinding {
  applicationName: string;
  username: string;
  /** The account's email; empty when it has none (the page then asks for one). */
  email: string;
  /** What the person typed, shown again after a refusal. */
  typedEmail?: string;
  error?: string;
}

/**
 * The application requires a verified email (form contract: POST /oauth2/verify-email with
 * hidden `request` and `csrf_token`, and input `email` when the account has no email).
 */
export function verifyEmailPage(model: VerifyEmailPageModel): string {
  const address =
    model.email !== ''
      ? html`<p>We will send a code to <strong>${model.email}</strong>.</p>`
      : html`<label for="email">Email</label>
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
    'Verify your email',
    html`<p>
        <strong>${model.applicationName}</strong> needs a verified email address for your account
        <strong>${model.username}</strong>.
      </p>
      ${errorBox(model.error)}
      <form method="post" action="/oauth2/verify-email">
        <input type="hidden" name="request" value="${model.requestId}" />
        <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
        ${address}
        <button type="submit">Send a code</button>
      </form>`,
  );
}
