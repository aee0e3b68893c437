import { Module } from '@nestjs/common';
import { SessionsModule } from '../../sessions/sessions.module';
import { UsersModule } from '../../users/users.module';
import { StepUp } from './step-up';

/** The step-up rule of the account page and of the email verification step (step-up.ts). */
@Module({
  imports: [
    SessionsModule, // the throttled password check
    UsersModule, // the user's addresses
  ],
  providers: [StepUp],
  exports: [StepUp],
})
export class StepUpModule {}
