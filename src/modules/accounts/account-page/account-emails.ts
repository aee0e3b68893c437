import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { MailNotSent } from '../../mail/mail-message';
import { Mailer } from '../../mail/mailer';
import { isEmailAddress, UsersService } from '../../users/users.service';
import type { User } from '../../users/user.entity';
import { codeMail } from '../one-time-codes/code-mail';
import { OneTimeCodes } from '../one-time-codes/one-time-codes.service';

/** How many addresses one account may list. */
export const MAX_EMAILS_PER_ACCOUNT = 10;

/** Where the link of a verification email leads (with `id` and `code`). */
export const CONFIRM_EMAIL_PATH = '/account/emails/confirm';

export type SendCodeOutcome =
  | { kind: 'sent'; id: string }
  | { kind: 'refused'; message: string }
  | { kind: 'throttled'; retryAfterSeconds: number }
  /** The SMTP server did not take the message. */
  | { kind: 'not_sent' };

export type ConfirmOutcome =
  | { kind: 'verified'; email: string }
  /** Wrong, expired, spent or unknown (the answer never says which), or another account's. */
  | { kind: 'refused' }
  | { kind: 'taken'; email: string };

/**
 * Verifying an address of the signed-in user, and adding one, with an emailed one-time code
 * (docs/accounts.md, "Email addresses"): the code goes to the address, and entering it on the
 * account page, in the same session's account, proves the address is the user's.
 */
@Injectable()
export class AccountEmails {
  private readonly base: URL;

  constructor(
    @Inject(AppConfig) config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly codes: OneTimeCodes,
    private readonly mailer: Mailer,
    private readonly users: UsersService,
  ) {
    this.base = new URL(config.publicBaseUrl);
  }

  /**
   * Emails a verification code to `rawEmail`: an unverified address of the user, or a new one
   * (up to MAX_EMAILS_PER_ACCOUNT). Whether another account holds the address is not said here
   * (only to whoever enters the code), so the form cannot be used to look addresses up.
   */
  async sendCode(user: User, rawEmail: string, clientAddress: string): Promise<SendCodeOutcome> {
    const email = rawEmail.trim().toLowerCase();
    if (!isEmailAddress(email)) return refused('Enter a valid email address.');
    const mine = await this.users.emailsOf(user);
    const entry = mine.find((row) => row.email.toLowerCase() === email);
    if (entry?.verified) return refused('This address is verified already.');
    if (!entry && mine.length >= MAX_EMAILS_PER_ACCOUNT) {
      return refused(`An account may have at most ${MAX_EMAILS_PER_ACCOUNT} addresses.`);
    }
    const issued = await this.codes.issue({
      purpose: 'email_verification',
      email,
      userId: user.id,
      clientAddress,
    });
    if (issued.kind === 'throttled') return issued;
    const link = new URL(CONFIRM_EMAIL_PATH, this.base);
    link.search = new URLSearchParams({ id: issued.id, code: issued.code }).toString();
    const message = codeMail('email_verification', {
      to: email,
      site: this.base.host,
      code: issued.code,
      link: link.toString(),
    });
    try {
      await this.mailer.send(message);
    } catch (error) {
      if (error instanceof MailNotSent) return { kind: 'not_sent' };
      throw error;
    }
    return { kind: 'sent', id: issued.id };
  }

  /**
   * Checks an entered code; when it is right and the user's, the address becomes a verified one
   * of theirs. The try counts (and the code is spent) whatever the outcome.
   */
  async confirm(user: User, id: unknown, code: unknown): Promise<ConfirmOutcome> {
    return this.dataSource.transaction(async (manager) => {
      const outcome = await this.codes.consume(manager, 'email_verification', id, code);
      if (outcome.kind !== 'accepted' || outcome.code.userId !== user.id) {
        return { kind: 'refused' };
      }
      const email = outcome.code.email;
      const verified = await this.users.verifyEmail(manager, user.id, email);
      return { kind: verified, email };
    });
  }
}

function refused(message: string): SendCodeOutcome {
  return { kind: 'refused', message };
}
