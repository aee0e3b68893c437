import { Module } from '@nestjs/common';
import { AuditModule } from '../../audit/audit.module';
import { ConsoleRolesModule } from '../roles/console-roles.module';
import { ConsoleSessionModule } from '../session/console-session.module';
import { ConsoleAuditController } from './console-audit.controller';

/** The Audit log tab: an application's audit log (the table is the audit module's). */
@Module({
  imports: [ConsoleSessionModule, ConsoleRolesModule, AuditModule],
  controllers: [ConsoleAuditController],
})
export class ConsoleAuditModule {}
