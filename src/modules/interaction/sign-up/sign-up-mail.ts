import { LOGIN_PATH } from '../../oauth/authorize/login-location';
import { Injectable } from '@nestjs/common';
import type { Locale } from '../../../common/i18n/i18n';
import { MailNotSent } from '../../mail/mail-message';
import { Mailer } from '../../mail/mailer';
import { mailNotSent } from '../account-pages';
import { codeMail } from '../one-time-codes/code-mail';
import { OneTimeCodes } from '../one-time-codes/one-time-codes.service';
import { PendingInteractions, type Interaction } from '../pending-interactions';
import type { SignUpPayload } from './sign-up-accounts';
import { SIGN_UP_CODE_PATH } from './sign-up.pages';

/** A code or a notice sent, with the id the code page is given; or the address's quota spent. */
export type Sent = { kind: 'sent'; id: string } | { kind: 'throttled'; retryAfterSeconds: number };

/**
 * What the sign-up form sends (docs/accounts.md, "Sign-up"): a code to a new address, a notice to
 * an address that has an account, each with an id for the code page, a decoy for the notice.
 */
@Injectable()
export class SignUpMail {
  constructor(
    private readonly interactions: PendingInteractions,
    private readonly codes: OneTimeCodes,
    private readonly mailer: Mailer,
  ) {}

  async sendCode(
    interaction: Interaction,
    email: string,
    payload: SignUpPayload,
    clientAddress: string,
    locale: Locale,
  ): Promise<Sent> {
    const issued = await this.codes.issue({
      purpose: 'sign_up',
      email,
      userId: null,
      payload: { ...payload },
      clientAddress,
    });
    if (issued.kind === 'throttled') return issued;
    const link = this.interactions.url(SIGN_UP_CODE_PATH, interaction, {
      id: issued.id,
      code: issued.code,
    });
    await this.send(
      codeMail('sign_up', {
        to: email,
        locale,
        site: this.interactions.site,
        code: issued.code,
        link,
        applicationName: interaction.application.name,
      }),
    );
    return { kind: 'sent', id: issued.id };
  }

  /** The address has an account: tell its owner, and answer with an id that is never accepted. */
  async sendNotice(
    interaction: Interaction,
    email: string,
    clientAddress: string,
    locale: Locale,
  ): Promise<Sent> {
    const decoy = await this.codes.decoy(email, clientAddress);
    if (decoy.kind === 'throttled') return decoy;
    await this.send(
      codeMail('sign_up_existing', {
        to: email,
        locale,
        site: this.interactions.site,
        link: this.interactions.url(LOGIN_PATH, interaction),
        applicationName: interaction.application.name,
      }),
    );
    return { kind: 'sent', id: decoy.id };
  }

  private async send(message: Parameters<Mailer['send']>[0]): Promise<void> {
    try {
      await this.mailer.send(message);
    } catch (error) {
      if (error instanceof MailNotSent) throw mailNotSent();
      throw error;
    }
  }
}
