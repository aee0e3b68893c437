/** One email: the plain-text body and the HTML body say the same thing. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** A message could not be handed to the SMTP server (connection, TLS, refusal, timeout). */
export class MailNotSent extends Error {
  constructor(reason: string) {
    super(`The email could not be sent: ${reason}`);
    this.name = 'MailNotSent';
  }
}
