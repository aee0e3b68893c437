import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { MailNotSent } from '../../mail/mail-message';
import { Mailer } from '../../mail/mailer';
import { emailKey, normalEmail } from '../../users/account-names';
import { addressHeldByAnother, claimsNameOrAddress } from '../../users/address-holder';
import { UserEmail } from '../../users/user-email.entity';
import { User } from '../../users/user.entity';
import { codeMail } from '../one-time-codes/code-mail';
import { OneTimeCodes } from '../one-time-codes/one-time-codes.service';
import type { Locale } from '../../../common/i18n/i18n';

/** A code to send to a signed-in user, to prove an address is theirs. */
export interface VerificationRequest {
  /** The signed-in user. */
  userId: string;
  /** The address to verify, as typed (normalEmail here) or as the account stores it. */
  email: string;
  /** The client address asking (counted by the code limits). */
  clientAddress: string;
  /** The host people know the service by (the public base URL's), for the email's wording. */
  site: string;
  /** The emailed link: the page where the code is entered, with the code filled in. */
  link: (id: string, code: string) => string;
  /** The application the person is signing in to, when there is one. */
  applicationName?: string;
  /** The email's language: that of the page whose form asked for the code. */
  locale: Locale;
  /**
   * Once verified, make it the account's email even if the account has another one (changing
   * the primary address). Without it the address becomes the account's email only when it
   * already is, or when the account has none.
   */
  makePrimary?: boolean;
}

export type SendOutcome =
  /** `id` goes into the code form (the code itself only into the email). */
  | { kind: 'sent'; id: string; email: string }
  | { kind: 'invalid_email' }
  | { kind: 'throttled'; retryAfterSeconds: number }
  /** The SMTP server did not take the email (docs/accounts.md, "Mail"). */
  | { kind: 'not_sent' };

export type ConfirmOutcome =
  /** `primary`: the address is now the account's email (users.email, email_verified). */
  | { kind: 'verified'; email: string; primary: boolean }
  /** Wrong, expired, spent, unknown, or another account's code: the answer never says which. */
  | { kind: 'refused' }
  /** Another account holds the address (its email, or a verified or primary entry). */
  | { kind: 'taken' };

/**
 * Proving that an address belongs to a signed-in user (docs/accounts.md, "Email verification"):
 * `send` emails an `email_verification` code, `confirm` checks the entered code and, in the
 * transaction that spends it, marks the address verified everywhere the contract shows it. Used by
 * the verification page of an authorization and by the account page. Sending never tells whether
 * another account holds the address; confirming does (the person has shown it is theirs).
 */
@Injectable()
export class EmailVerificationService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly codes: OneTimeCodes,
    private readonly mailer: Mailer,
  ) {}

  /** Emails a code for `request.email`, within the code limits (docs/accounts.md, "Limits"). */
  async send(request: VerificationRequest): Promise<SendOutcome> {
    const email = normalEmail(request.email);
    if (email === null) return { kind: 'invalid_email' };
    const issued = await this.codes.issue({
      purpose: 'email_verification',
      email,
      userId: request.userId,
      payload: { makePrimary: request.makePrimary === true },
      clientAddress: request.clientAddress,
    });
    if (issued.kind === 'throttled') return issued;
    const message = codeMail('email_verification', {
      to: email,
      locale: request.locale,
      site: request.site,
      code: issued.code,
      link: request.link(issued.id, issued.code),
      applicationName: request.applicationName,
    });
    try {
      await this.mailer.send(message);
    } catch (error) {
      if (error instanceof MailNotSent) return { kind: 'not_sent' };
      throw error;
    }
    return { kind: 'sent', id: issued.id, email };
  }

  /**
   * Checks the code `userId` entered. The right code (sent for this user) marks its address
   * verified: its user_emails entry verified (made if missing), and when it is or becomes the
   * account's email, users.email and users.email_verified, with that entry the only primary one.
   */
  async confirm(userId: string, id: unknown, code: unknown): Promise<ConfirmOutcome> {
    try {
      return await this.dataSource.transaction(async (manager) => {
        // Another account's code counts as a wrong try: never spent, never applied here.
        const outcome = await this.codes.consume(manager, 'email_verification', id, code, userId);
        if (outcome.kind !== 'accepted' || outcome.code.userId !== userId) {
          return { kind: 'refused' };
        }
        const makePrimary = outcome.code.payload?.makePrimary === true;
        return this.markVerified(manager, userId, outcome.code.email, makePrimary);
      });
    } catch (error) {
      // Another account took the address at the same moment: the unique indexes decided.
      if (claimsNameOrAddress(error)) return { kind: 'taken' };
      throw error;
    }
  }

  private async markVerified(
    manager: EntityManager,
    userId: string,
    email: string,
    makePrimary: boolean,
  ): Promise<ConfirmOutcome> {
    // The user's row is locked: two confirmations of one account apply one after the other.
    const rows = await manager.query<{ email: string }[]>(
      'SELECT email FROM users WHERE id = $1 FOR UPDATE',
      [userId],
    );
    if (rows.length === 0) return { kind: 'refused' };
    if (await addressHeldByAnother(manager, email, userId)) return { kind: 'taken' };
    const current = emailKey(rows[0].email);
    const primary = makePrimary || current === '' || current === email;
    if (primary) {
      await manager.query(
        'UPDATE user_emails SET "primary" = false WHERE user_id = $1 AND lower(email) <> $2',
        [userId, email],
      );
    }
    // One entry per address and user (uq_user_emails_user_lower_email): update it, or add it.
    const updated = await manager.query<unknown[]>(
      `WITH entry AS (
         UPDATE user_emails SET verified = true, "primary" = "primary" OR $3
          WHERE user_id = $1 AND lower(email) = $2 RETURNING id)
       SELECT id FROM entry`,
      [userId, email, primary],
    );
    if (updated.length === 0) {
      await manager
        .getRepository(UserEmail)
        .insert({ userId, email, verified: true, primary, visibility: 'public' });
    }
    if (primary) {
      await manager.getRepository(User).update({ id: userId }, { email, emailVerified: true });
    }
    return { kind: 'verified', email, primary };
  }
}
