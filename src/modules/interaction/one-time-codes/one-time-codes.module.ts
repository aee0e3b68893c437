import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MailModule } from '../../mail/mail.module';
import { RateLimitModule } from '../../rate-limit/rate-limit.module';
import { CodeQuota } from './code-quota';
import { OneTimeCode } from './one-time-code.entity';
import { OneTimeCodes } from './one-time-codes.service';

/**
 * Emailed one-time codes (sign-up, email verification, password reset), their limits, and the
 * mailer their flows send them with.
 */
@Module({
  imports: [TypeOrmModule.forFeature([OneTimeCode]), RateLimitModule, MailModule],
  providers: [OneTimeCodes, CodeQuota],
  exports: [OneTimeCodes, MailModule],
})
export class OneTimeCodesModule {}
