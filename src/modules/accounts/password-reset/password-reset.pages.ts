import { html, Html, layout } from '../../../common/http/html';
import { codeInput } from '../account-pages';
import { CODE_TTL_SECONDS } from '../one-time-codes/one-time-codes.service';

/** The line the reset page shows, whether or not an account uses the address (one answer). */
export const CODE_SENT_NOTICE =
  'If an account uses this address, we sent it a code. It works for ' +
  `${CODE_TTL_SECONDS / 60} minutes.`;

export interface ForgotPasswordPageModel {
  /** The sealed authorization request, when the person came from a login page. */
  requestId?: string;
  csrfToken: string;
  /** Where "Back to sign in" goes: the login page of the request, or the account page's. */
  signInUrl: string;
  email?: string;
  error?: string;
}

/** Form contract: input `email`, hidden `csrf_token` and (from a login page) `request`. */
export function forgotPasswordPage(model: ForgotPasswordPageModel): string {
  return layout(
    'Reset your password',
    html`<p>
        Enter the email address of your account. If an account uses it, we send it a code to choose
        a new password.
      </p>
      ${errorLine(model.error)}
      <form method="post" action="/oauth2/forgot-password">
        ${requestInput(model.requestId)}
        <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
        <label for="email">Email address</label>
        <input
          type="email"
          id="email"
          name="email"
          autocomplete="email"
          required
          value="${model.email ?? ''}"
        />
        <button type="submit">Send the code</button>
      </form>
      <p><a href="${model.signInUrl}">Back to sign in</a></p>`,
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
  error?: string;
}

/**
 * Form contract: inputs `code`, `password`, `password_repeat`, hidden `id`, `csrf_token` and
 * (from a login page) `request`.
 */
export function resetPasswordPage(model: ResetPasswordPageModel): string {
  const newCode = html`<p>
    <a href="${model.newCodeUrl}">No code, or a wrong one? Ask for a new code.</a>
  </p>`;
  return layout(
    'Choose a new password',
    html`<p>${CODE_SENT_NOTICE}</p>
      ${errorLine(model.error)}
      <form method="post" action="/oauth2/reset-password">
        <input type="hidden" name="id" value="${model.id}" />
        ${requestInput(model.requestId)}
        <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
        ${codeInput(model.code)}
        <label for="password">New password</label>
        <input type="password" id="password" name="password" autocomplete="new-password" required />
        <label for="password_repeat">New password, again</label>
        <input
          type="password"
          id="password_repeat"
          name="password_repeat"
          autocomplete="new-password"
          required
        />
        <button type="submit">Set the new password</button>
      </form>
      ${newCode}`,
  );
}

/** After a reset whose authorization request expired meanwhile: signed in, nowhere to go on. */
export function passwordChangedPage(): string {
  return layout(
    'Password changed',
    html`<p>
        Your new password is set and you are signed in. The sign-in request of the application
        expired in the meantime: return to the application and sign in again.
      </p>
      <p><a href="/account">Your account</a></p>`,
  );
}

function errorLine(error: string | undefined): Html {
  return error ? html`<p class="error" role="alert">${error}</p>` : html``;
}

function requestInput(requestId: string | undefined): Html {
  return requestId === undefined
    ? html``
    : html`<input type="hidden" name="request" value="${requestId}" />`;
}
