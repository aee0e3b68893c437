import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { User } from '../users/user.entity';
import { Csrf } from './csrf';
import { LoginThrottle } from './login-throttle';
import { LoginService } from './login.service';
import { OAuthSession } from './oauth-session.entity';
import { PasswordCheckQueue } from './password-check-queue';
import { SessionService } from './session.service';

/**
 * Browser sessions (table oauth_sessions), the throttled password check, CSRF tokens and the
 * service's cookies: shared by the OAuth pages, the console and the upstream sign-in flow.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([User, OAuthSession]),
    RateLimitModule, // LoginThrottle counts failures in its throttler storage
  ],
  providers: [SessionService, LoginService, PasswordCheckQueue, LoginThrottle, Csrf],
  // PasswordCheckQueue: sign-up hashes the new password in the same bounded queue as sign-ins.
  exports: [SessionService, LoginService, Csrf, PasswordCheckQueue],
})
export class SessionsModule {}
