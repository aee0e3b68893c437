import { Module } from '@nestjs/common';
import { AuditModule } from '../../audit/audit.module';
import { ConsolePasskeysModule } from '../passkeys/console-passkeys.module';
import { ConsoleRolesModule } from '../roles/console-roles.module';
import { ConsoleSessionModule } from '../session/console-session.module';
import { MemberConfirmationChecks } from './confirmation-checks';
import { ConsoleMemberChanges } from './console-member-changes.service';
import { ConsoleMembersController } from './console-members.controller';

/** The Members tab: who has console access, and giving and withdrawing roles with a passkey. */
@Module({
  imports: [ConsoleSessionModule, ConsoleRolesModule, ConsolePasskeysModule, AuditModule],
  controllers: [ConsoleMembersController],
  providers: [ConsoleMemberChanges, MemberConfirmationChecks /* console_role.* */],
})
export class ConsoleMembersModule {}
