import { Module } from '@nestjs/common';
import { OAuthModule } from '../oauth/oauth.module';
import { ConsoleAccess } from './console-access.service';
import { ConsoleSessionController } from './console-session.controller';
import { ConsoleSessionGuard, ConsoleSessions } from './console-session';

/**
 * The console's foundation: sessions, CSRF, the session guard and roles (docs/console.md).
 * Modules with console routes (console-api, passkeys) import it for ConsoleSessionGuard's
 * dependencies and ConsoleAccess.
 */
@Module({
  imports: [OAuthModule],
  controllers: [ConsoleSessionController],
  providers: [ConsoleSessions, ConsoleSessionGuard, ConsoleAccess],
  exports: [ConsoleSessions, ConsoleSessionGuard, ConsoleAccess],
})
export class ConsoleModule {}
