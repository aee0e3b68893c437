import { Module } from '@nestjs/common';
import { UsersModule } from '../../users/users.module';
import { ConsoleAccess } from './console-access.service';
import { ConsoleMembers } from './console-members.service';

/**
 * Console roles per application (docs/console.md, "Roles"): who holds which role
 * (ConsoleAccess, which ApplicationRoleGuard asks for every @ApplicationRole route), the rules
 * and writes of role changes (ConsoleMembers, table console_members). A role goes to a user of
 * the application, hence UsersModule.
 */
@Module({
  imports: [UsersModule],
  providers: [ConsoleAccess, ConsoleMembers],
  exports: [ConsoleAccess, ConsoleMembers],
})
export class ConsoleRolesModule {}
