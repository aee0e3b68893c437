import { html } from '../../../common/http/html';
import { formatDateTime } from '../../../common/i18n/dates';
import { translator, type Locale } from '../../../common/i18n/i18n';
import type { MailMessage } from '../../mail/mail-message';

export interface PasswordChangedMailModel {
  to: string;
  /** The language of the page the new password was set on (docs/languages.md). */
  locale: Locale;
  /** The host people know the service by (the public base URL's). */
  site: string;
  username: string;
  /** The address the code was entered from; it says who could have done it. */
  codeSentTo: string;
  when: Date;
  /** The account had no password before (it signed in through an upstream provider only). */
  firstPassword: boolean;
  /** The page to ask for a new code (to take the account back). */
  resetLink: string;
}

/**
 * The notice sent after a password reset (docs/accounts.md, "What each email contains"), in the
 * language of the page it was reset on: what changed, when, with a code sent to which address,
 * that every session was signed out, and what to do if it was not the owner. No code and no
 * secret: it only informs. Plain text and HTML say the same; the HTML escapes every value.
 */
export function passwordChangedMail(model: PasswordChangedMailModel): MailMessage {
  const { t } = translator(model.locale);
  const values = {
    site: model.site,
    username: model.username,
    codeSentTo: model.codeSentTo,
    when: formatDateTime(model.when, model.locale),
  };
  const subject = model.firstPassword
    ? t('mail.passwordChanged.subjectFirst', values)
    : t('mail.passwordChanged.subject', values);
  const lead = model.firstPassword
    ? t('mail.passwordChanged.leadFirst', values)
    : t('mail.passwordChanged.lead', values);
  const notMe = t('mail.passwordChanged.notMe', values);
  const itWasMe = t('mail.passwordChanged.itWasMe');
  const text = [lead, '', notMe, model.resetLink, '', itWasMe, ''];
  const body = html`<!doctype html>
    <html lang="${model.locale}">
      <body>
        <p>${lead}</p>
        <p>${notMe}</p>
        <p><a href="${model.resetLink}">${t('mail.reset.action')}</a></p>
        <p style="color:#555">${itWasMe}</p>
      </body>
    </html>`;
  return { to: model.to, subject, text: text.join('\n'), html: body.text };
}
