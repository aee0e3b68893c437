import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import { AppConfig } from '../../config/app-config';
import type { SmtpServer } from '../../config/smtp-url';
import { MailNotSent, type MailMessage } from './mail-message';

/** Seconds to wait for the SMTP server at each stage: connect, greeting, any later reply. */
const SMTP_TIMEOUT_MS = 10_000;

/** Where messages go: an SMTP server, the log (development), or nowhere (production, no SMTP). */
export type MailMode = 'smtp' | 'log' | 'off';

/** Where this configuration sends messages (see Mailer). */
export function mailModeOf(config: Pick<AppConfig, 'smtpUrl' | 'isProduction'>): MailMode {
  if (config.smtpUrl) return 'smtp';
  return config.isProduction ? 'off' : 'log';
}

/**
 * nodemailer's settings for SMTP_URL, built here rather than handed over as `url`, so nothing in
 * the URL can switch TLS off. smtp:// requires STARTTLS (RFC 3207) whatever the host: a man in
 * the middle who strips STARTTLS from the EHLO reply gets a failed send, not the SMTP password
 * and the codes; only SMTP_ALLOW_PLAINTEXT lets the mail go in clear when STARTTLS is not offered.
 */
export function smtpTransportOptions(
  server: SmtpServer,
  allowPlaintext: boolean,
): SMTPTransport.Options {
  return {
    host: server.host,
    port: server.port,
    secure: server.implicitTls,
    requireTLS: !server.implicitTls && !allowPlaintext,
    auth: server.auth,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  };
}

/**
 * The service's outgoing mail (docs/accounts.md, "Mail"): nodemailer over SMTP_URL, From
 * MAIL_FROM. Without SMTP_URL, outside production, each message is written to the log under a
 * marker no one can mistake for a delivery, so the quickstart can sign up and reset passwords;
 * in production without SMTP_URL nothing is sent and nothing of the message is logged (codes in
 * production logs would be a way in).
 */
@Injectable()
export class Mailer implements OnApplicationShutdown {
  private readonly logger = new Logger('Mail');
  private readonly transport?: Transporter;
  readonly mode: MailMode;

  constructor(@Inject(AppConfig) private readonly config: AppConfig) {
    this.mode = mailModeOf(config);
    const server = config.smtpServer;
    if (server) {
      this.transport = createTransport(smtpTransportOptions(server, config.smtpAllowPlaintext));
      if (config.smtpMayBePlaintext) {
        this.logger.warn(
          `SMTP_ALLOW_PLAINTEXT=true: mail to ${server.host} goes unencrypted, SMTP password and codes included, when the server offers no STARTTLS`,
        );
      }
    }
  }

  /** Sends one message; throws MailNotSent when the SMTP server cannot take it. */
  async send(message: MailMessage): Promise<void> {
    if (this.mode === 'log') {
      this.logger.warn(
        [
          '==== EMAIL NOT SENT (no SMTP_URL; development only) ====',
          `To: ${message.to}`,
          `Subject: ${message.subject}`,
          '',
          message.text,
          '==== END OF EMAIL ====',
        ].join('\n'),
      );
      return;
    }
    if (!this.transport) {
      this.logger.error('An email was not sent: SMTP_URL is not set (docs/accounts.md, "Mail")');
      return;
    }
    try {
      await this.transport.sendMail({ from: this.config.mailFrom, ...message });
    } catch (error) {
      const reason = (error as Error).message;
      this.logger.error(`An email was not sent: ${reason}`);
      throw new MailNotSent(reason);
    }
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
