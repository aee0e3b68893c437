import { Module } from '@nestjs/common';
import { SessionsModule } from '../sessions/sessions.module';
import { UsersModule } from '../users/users.module';
import { ConsoleAccess } from './console-access.service';
import { ConsoleMembers } from './console-members.service';
import { ConsoleSessionController } from './console-session.controller';
import { ConsoleSessionGuard, ConsoleSessions } from './console-session';

/**
 * The console's foundation: sessions, CSRF, the session guard and roles (docs/console.md).
 * Modules with console routes (console-api, passkeys) import it for ConsoleSessionGuard's
 * dependencies, ConsoleAccess and ConsoleMembers (table console_members).
 */
@Module({
  imports: [SessionsModule, UsersModule],
  controllers: [ConsoleSessionController],
  providers: [ConsoleSessions, ConsoleSessionGuard, ConsoleAccess, ConsoleMembers],
  exports: [ConsoleSessions, ConsoleSessionGuard, ConsoleAccess, ConsoleMembers],
})
export class ConsoleModule {}
