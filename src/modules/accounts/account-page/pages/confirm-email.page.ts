import { html } from '../../../../common/http/html';
import { codeInput } from '../../account-pages';
import { accountLayout, formError } from './account-layout';

export interface ConfirmEmailModel {
  csrfToken: string;
  /** The code's id (from the redirect after sending, or the emailed link). */
  id: string;
  /** Filled in from the emailed link; the person still submits the form. */
  code: string;
  error?: string;
}

/**
 * GET /account/emails/confirm: the form to enter an emailed verification code (inputs `code`,
 * hidden `id` and `csrf_token`). Opening the emailed link spends nothing: only the form does.
 */
export function confirmEmailPage(model: ConfirmEmailModel): string {
  return accountLayout({
    title: 'Verify your email address',
    width: 'narrow',
    body: html`<h1>Verify your email address</h1>
      ${formError(model.error)}
      <p>Enter the code we emailed you. It works once, for 15 minutes.</p>
      <form method="post" action="/account/emails/confirm">
        <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
        <input type="hidden" name="id" value="${model.id}" />
        ${codeInput(model.code)}
        <button type="submit">Verify</button>
      </form>
      <p><a href="/account#emails">Back to your account</a></p>`,
  });
}
