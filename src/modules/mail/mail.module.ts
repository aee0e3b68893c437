import { Module } from '@nestjs/common';
import { Mailer } from './mailer';

/** Outgoing email (SMTP through nodemailer, or the log in development). */
@Module({
  providers: [Mailer],
  exports: [Mailer],
})
export class MailModule {}
