import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import type { MailMessage } from '../../mail/mail-message';
import { Mailer } from '../../mail/mailer';

/**
 * Sends emails once the current answer has been written (docs/accounts.md, "Password reset":
 * the answer to "forgot password" must take as long whether or not an email goes out, and an
 * SMTP round trip is tens to hundreds of milliseconds). A message that cannot be sent is logged
 * by the Mailer and dropped; the person asks again. On shutdown the messages still on their way
 * are waited for, before the Mailer closes its connection.
 */
@Injectable()
export class MailAfterAnswer implements BeforeApplicationShutdown {
  private readonly sending = new Set<Promise<void>>();

  constructor(private readonly mailer: Mailer) {}

  /** Starts sending `message` after the current event-loop turn; never throws. */
  send(message: MailMessage): void {
    const sending = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.mailer.send(message))
      // MailNotSent: the Mailer has logged why; nothing is left to do with it here.
      .catch(() => undefined)
      .finally(() => this.sending.delete(sending));
    this.sending.add(sending);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([...this.sending]);
  }
}
