import { Inject, Injectable } from '@nestjs/common';
import { msg, type Locale, type Message } from '../../../common/i18n/i18n';
import { AppConfig } from '../../../config/app-config';
import { emailKey, normalEmail } from '../../users/account-names';
import type { User } from '../../users/user.entity';
import { UsersService } from '../../users/users.service';
import {
  EmailVerificationService,
  type ConfirmOutcome,
} from '../email-verification/email-verification.service';

/** How many addresses one account may list. */
export const MAX_EMAILS_PER_ACCOUNT = 10;

/** Where the link of a verification email leads (with `id` and `code`). */
export const CONFIRM_EMAIL_PATH = '/account/emails/confirm';

export type SendCodeOutcome =
  | { kind: 'sent'; id: string }
  | { kind: 'refused'; message: Message }
  | { kind: 'throttled'; retryAfterSeconds: number }
  /** The SMTP server did not take the message. */
  | { kind: 'not_sent' };

export type { ConfirmOutcome };

/**
 * The account page's "Send a verification code" and "Enter the code" (docs/accounts.md, "The
 * account page"): its own rules (an address not verified yet, at most MAX_EMAILS_PER_ACCOUNT),
 * then EmailVerificationService, which sends, checks and applies the code as it does for an
 * authorization that needs a verified email.
 */
@Injectable()
export class AccountEmails {
  private readonly base: URL;

  constructor(
    @Inject(AppConfig) config: AppConfig,
    private readonly verification: EmailVerificationService,
    private readonly users: UsersService,
  ) {
    this.base = new URL(config.publicBaseUrl);
  }

  /**
   * Emails a verification code to `rawEmail`: an unverified address of the user, or a new one.
   * Whether another account holds the address is not said here (only to whoever enters the
   * code), so the form cannot be used to look addresses up. The email is in `locale`.
   */
  async sendCode(
    user: User,
    rawEmail: string,
    clientAddress: string,
    locale: Locale,
  ): Promise<SendCodeOutcome> {
    const email = normalEmail(rawEmail);
    if (email === null) return refused(msg('account.emails.invalid'));
    const mine = await this.users.emailsOf(user);
    const entry = mine.find((row) => emailKey(row.email) === email);
    if (entry?.verified) return refused(msg('account.emails.alreadyVerified'));
    if (!entry && mine.length >= MAX_EMAILS_PER_ACCOUNT) {
      return refused(msg('account.emails.tooMany', { max: MAX_EMAILS_PER_ACCOUNT }));
    }
    const sent = await this.verification.send({
      userId: user.id,
      email,
      clientAddress,
      site: this.base.host,
      locale,
      link: (id, code) => {
        const link = new URL(CONFIRM_EMAIL_PATH, this.base);
        link.search = new URLSearchParams({ id, code }).toString();
        return link.toString();
      },
    });
    if (sent.kind === 'invalid_email') return refused(msg('account.emails.invalid'));
    return sent.kind === 'sent' ? { kind: 'sent', id: sent.id } : sent;
  }

  /** Checks an entered code of the user (every try counts; see EmailVerificationService). */
  confirm(user: User, id: unknown, code: unknown): Promise<ConfirmOutcome> {
    return this.verification.confirm(user.id, id, code);
  }
}

function refused(message: Message): SendCodeOutcome {
  return { kind: 'refused', message };
}
