import { html, layout } from '../../../common/http/html';
import { errorBox, type FormBinding } from '../account-pages';

export interface SignUpPageModel extends FormBinding {
  applicationName: string;
  /** What the person typed, shown again after a refusal (never the password). */
  username?: string;
  email?: string;
  error?: string;
  /** GET /oauth2/login?request=… */
  loginUrl: string;
}

/**
 * The sign-up form (form contract: inputs `username`, `email`, `password`; hidden `request` and
 * `csrf_token`), with the autocomplete tokens that let a password manager save the new account.
 */
export function signUpPage(model: SignUpPageModel): string {
  return layout(
    'Create an account',
    html`<p>to continue to <strong>${model.applicationName}</strong></p>
      ${errorBox(model.error)}
      <form method="post" action="/oauth2/signup">
        <input type="hidden" name="request" value="${model.requestId}" />
        <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
        <label for="username">Username</label>
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
        <p class="hint" id="username-hint">
          3 to 64 letters, digits, "_", "." or "-", starting with a letter or digit.
        </p>
        <label for="email">Email</label>
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
        <p class="hint" id="email-hint">We send a code to this address to confirm it is yours.</p>
        <label for="password">Password</label>
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
        <p class="hint" id="password-hint">
          At least 8 characters; a few unrelated words make a good one.
        </p>
        <button type="submit">Create account</button>
      </form>
      <p class="muted">Already have an account? <a href="${model.loginUrl}">Sign in</a></p>`,
  );
}
