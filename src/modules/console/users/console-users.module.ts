import { Module } from '@nestjs/common';
import { AuditModule } from '../../audit/audit.module';
import { EventsModule } from '../../events/events.module';
import { StatsModule } from '../../stats/stats.module';
import { UsersModule } from '../../users/users.module';
import { ConsoleRolesModule } from '../roles/console-roles.module';
import { ConsoleSessionModule } from '../session/console-session.module';
import { ConsoleUsersController } from './console-users.controller';
import { ConsoleUsers } from './console-users.service';

/** An application's users, events and statistics in the console (as /api/v1/app answers them). */
@Module({
  imports: [
    ConsoleSessionModule,
    ConsoleRolesModule,
    AuditModule,
    UsersModule,
    EventsModule,
    StatsModule,
  ],
  controllers: [ConsoleUsersController],
  providers: [ConsoleUsers],
})
export class ConsoleUsersModule {}
