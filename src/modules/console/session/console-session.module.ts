import { Module } from '@nestjs/common';
import { SessionsModule } from '../../sessions/sessions.module';
import { ConsoleSessionController } from './console-session.controller';
import { ConsoleSessionGuard, ConsoleSessions } from './console-session';

/**
 * Console sessions: sign-in and sign-out, the CSRF token and the session guard
 * (docs/console.md, "Sessions"). Every module with console routes imports it for
 * ConsoleSessionGuard's dependencies.
 */
@Module({
  imports: [SessionsModule],
  controllers: [ConsoleSessionController],
  providers: [ConsoleSessions, ConsoleSessionGuard],
  exports: [ConsoleSessions, ConsoleSessionGuard],
})
export class ConsoleSessionModule {}
