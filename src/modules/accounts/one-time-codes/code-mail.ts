import { html, Html } from '../../../common/http/html';
import type { MailMessage } from '../../mail/mail-message';
import { CODE_TTL_SECONDS } from './one-time-codes.service';

/** What an email is about: a code to enter, or the notice that an address already has an account. */
export type CodeMailKind = 'sign_up' | 'sign_up_existing' | 'email_verification' | 'password_reset';

export interface CodeMailModel {
  to: string;
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
  subject: string;
  lead: string;
  action: string;
}

const MINUTES = CODE_TTL_SECONDS / 60;

function wording(kind: CodeMailKind, model: CodeMailModel): Wording {
  const forApp = model.applicationName ? ` to continue to ${model.applicationName}` : '';
  switch (kind) {
    case 'sign_up':
      return {
        subject: `${model.code} is your code to create an account at ${model.site}`,
        lead: `Enter this code to finish creating your account at ${model.site}${forApp}.`,
        action: 'Finish creating my account',
      };
    case 'sign_up_existing':
      return {
        subject: `You already have an account at ${model.site}`,
        lead:
          `Someone asked to create an account at ${model.site} with this address. ` +
          'This address already belongs to an account, so no new account was made. If it was you, ' +
          'sign in, or reset your password if you have forgotten it.',
        action: 'Sign in',
      };
    case 'email_verification':
      return {
        subject: `${model.code} is your code to verify your email at ${model.site}`,
        lead: `Enter this code to verify this address for your account at ${model.site}${forApp}.`,
        action: 'Verify my email',
      };
    case 'password_reset':
      return {
        subject: `${model.code} is your code to reset your password at ${model.site}`,
        lead: `Enter this code to choose a new password for your account at ${model.site}.`,
        action: 'Reset my password',
      };
  }
}

/**
 * The email of a one-time code (docs/accounts.md, "What each email contains"): the code in the
 * subject and the body, a link to the page where it is entered, how long it lasts, and what to do
 * if the person did not ask for it. Plain text and HTML say the same; the HTML escapes every value.
 */
export function codeMail(kind: CodeMailKind, model: CodeMailModel): MailMessage {
  const words = wording(kind, model);
  const notMe =
    kind === 'sign_up_existing'
      ? 'If it was not you, you can ignore this email: nothing has changed.'
      : 'If you did not ask for this code, ignore this email: nothing changes until the code is entered. Never give the code to anyone.';
  const codeLines = model.code
    ? [`Your code: ${model.code}`, `It works once, for ${MINUTES} minutes.`, '']
    : [];
  const text = [words.lead, '', ...codeLines, `${words.action}: ${model.link}`, '', notMe, ''].join(
    '\n',
  );
  const codeBlock: Html = model.code
    ? html`<p>Your code:</p>
        <p style="font-size:24px;font-weight:bold;letter-spacing:4px">${model.code}</p>
        <p>It works once, for ${MINUTES} minutes.</p>`
    : html``;
  const body = html`<!doctype html>
    <html lang="en">
      <body>
        <p>${words.lead}</p>
        ${codeBlock}
        <p><a href="${model.link}">${words.action}</a></p>
        <p style="color:#555">${notMe}</p>
      </body>
    </html>`;
  return { to: model.to, subject: words.subject, text, html: body.text };
}
