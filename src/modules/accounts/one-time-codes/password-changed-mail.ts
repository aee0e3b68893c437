import { html } from '../../../common/http/html';
import type { MailMessage } from '../../mail/mail-message';

export interface PasswordChangedMailModel {
  to: string;
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
 * The notice sent after a password reset (docs/accounts.md, "What each email contains"): what
 * changed, when, with a code sent to which address, that every session was signed out, and what
 * to do if it was not the owner. No code and no secret: it only informs. Plain text and HTML say
 * the same; the HTML escapes every value.
 */
export function passwordChangedMail(model: PasswordChangedMailModel): MailMessage {
  const when = `${model.when.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const what = model.firstPassword ? 'A password was set for' : 'The password was changed for';
  const subject = model.firstPassword
    ? `A password was set for your account at ${model.site}`
    : `Your password at ${model.site} was changed`;
  const lead =
    `${what} your account ${model.username} at ${model.site} on ${when}, ` +
    `with a code sent to ${model.codeSentTo}. Every device signed in to the account was signed out.`;
  const notMe =
    `If it was not you, someone can read the email of ${model.codeSentTo}: secure that mailbox ` +
    '(change its password), then choose a new password for your account with a new code:';
  const text = [lead, '', notMe, model.resetLink, '', 'If it was you, there is nothing to do.', ''];
  const body = html`<!doctype html>
    <html lang="en">
      <body>
        <p>${lead}</p>
        <p>${notMe}</p>
        <p><a href="${model.resetLink}">Reset my password</a></p>
        <p style="color:#555">If it was you, there is nothing to do.</p>
      </body>
    </html>`;
  return { to: model.to, subject, text: text.join('\n'), html: body.text };
}
