import { html, Html } from '../../../common/http/html';
import { translator, type Locale, type MessageKey } from '../../../common/i18n/i18n';
import type { MailMessage } from '../../mail/mail-message';
import { CODE_TTL_SECONDS } from './one-time-codes.service';

/** What an email is about: a code to enter, or the notice that an address already has an account. */
export type CodeMailKind = 'sign_up' | 'sign_up_existing' | 'email_verification' | 'password_reset';

export interface CodeMailModel {
  to: string;
  /** The language of the page that caused the email (docs/languages.md). */
  locale: Locale;
  /** The host people know the service by (the public base URL's). */
  site: string;
  /** The six digits; absent for `sign_up_existing`. */
  code?: string;
  /** A link that opens the page to enter the code (with the code filled in), or to sign in. */
  link: string;
  /** The application the person was signing in to, when there was one. */
  applicationName?: string;
}

interface Wording {
  subject: MessageKey;
  lead: MessageKey;
  /** The lead naming the application the person was signing in to. */
  leadFor?: MessageKey;
  action: MessageKey;
  notMe: MessageKey;
}

const MINUTES = CODE_TTL_SECONDS / 60;

const WORDING: Record<CodeMailKind, Wording> = {
  sign_up: {
    subject: 'mail.signUp.subject',
    lead: 'mail.signUp.lead',
    leadFor: 'mail.signUp.leadFor',
    action: 'mail.signUp.action',
    notMe: 'mail.signUp.notMe',
  },
  sign_up_existing: {
    subject: 'mail.signUpExisting.subject',
    lead: 'mail.signUpExisting.lead',
    action: 'mail.signUpExisting.action',
    notMe: 'mail.signUpExisting.notMe',
  },
  email_verification: {
    subject: 'mail.verification.subject',
    lead: 'mail.verification.lead',
    leadFor: 'mail.verification.leadFor',
    action: 'mail.verification.action',
    notMe: 'mail.verification.notMe',
  },
  password_reset: {
    subject: 'mail.reset.subject',
    lead: 'mail.reset.lead',
    action: 'mail.reset.action',
    notMe: 'mail.code.notMe',
  },
};

/**
 * The email of a one-time code (docs/accounts.md, "What each email contains"), in the language
 * of the page that asked for it: the code in the subject and the body, a link to the page where
 * it is entered, how long it lasts, and what to do if the person did not ask for it. Plain text
 * and HTML say the same; the HTML escapes every value.
 */
export function codeMail(kind: CodeMailKind, model: CodeMailModel): MailMessage {
  const { t } = translator(model.locale);
  const words = WORDING[kind];
  const values = {
    site: model.site,
    code: model.code ?? '',
    application: model.applicationName ?? '',
  };
  const lead = t(model.applicationName && words.leadFor ? words.leadFor : words.lead, values);
  const action = t(words.action);
  const notMe = t(words.notMe);
  const lasts = t('mail.code.lasts', { minutes: MINUTES });
  const codeLines = model.code ? [t('mail.code.line', { code: model.code }), lasts, ''] : [];
  const text = [lead, '', ...codeLines, `${action}: ${model.link}`, '', notMe, ''].join('\n');
  const codeBlock: Html = model.code
    ? html`<p>${t('mail.code.label')}</p>
        <p style="font-size:24px;font-weight:bold;letter-spacing:4px">${model.code}</p>
        <p>${lasts}</p>`
    : html``;
  const body = html`<!doctype html>
    <html lang="${model.locale}">
      <body>
        <p>${lead}</p>
        ${codeBlock}
        <p><a href="${model.link}">${action}</a></p>
        <p style="color:#555">${notMe}</p>
      </body>
    </html>`;
  return { to: model.to, subject: t(words.subject, values), text, html: body.text };
}
