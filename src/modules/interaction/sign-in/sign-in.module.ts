import { Module } from '@nestjs/common';
import { PasskeysModule } from '../../passkeys/passkeys.module';
import { SessionsModule } from '../../sessions/sessions.module';
import { SignInMethods } from './sign-in-methods';

/** Password and passkey sign-in, once for the login page and the account page (SignInMethods). */
@Module({
  imports: [
    SessionsModule, // the throttled, queued password check
    PasskeysModule, // the passkey ceremony and its assertion
  ],
  providers: [SignInMethods],
  exports: [SignInMethods],
})
export class SignInModule {}
