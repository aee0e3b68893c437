import { html } from '../../../../common/http/html';
import type { Text } from '../../../../common/i18n/i18n';
import type { PageLanguage } from '../../../../common/i18n/page-language';
import { codeInput } from '../../account-pages';
import { CODE_TTL_SECONDS } from '../../one-time-codes/one-time-codes.service';
import { accountLayout, formError } from './account-layout';

export interface ConfirmEmailModel {
  csrfToken: string;
  /** The code's id (from the redirect after sending, or the emailed link). */
  id: string;
  /** Filled in from the emailed link; the person still submits the form. */
  code: string;
  error?: Text;
}

/**
 * GET /account/emails/confirm: the form to enter an emailed verification code (inputs `code`,
 * hidden `id` and `csrf_token`). Opening the emailed link spends nothing: only the form does.
 */
export function confirmEmailPage(lang: PageLanguage, model: ConfirmEmailModel): string {
  const { t } = lang.translator();
  return accountLayout(lang, {
    title: t('account.confirmEmail.title'),
    width: 'narrow',
    body: html`<h1>${t('account.confirmEmail.title')}</h1>
      ${formError(t, model.error)}
      <p>${t('account.confirmEmail.lead', { minutes: CODE_TTL_SECONDS / 60 })}</p>
      <form method="post" action="/account/emails/confirm">
        <input type="hidden" name="csrf_token" value="${model.csrfToken}" />
        <input type="hidden" name="id" value="${model.id}" />
        ${codeInput(t, model.code)}
        <button type="submit">${t('account.confirmEmail.submit')}</button>
      </form>
      <p><a href="/account#emails">${t('account.confirmEmail.back')}</a></p>`,
  });
}
