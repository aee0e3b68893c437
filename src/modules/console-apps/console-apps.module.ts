import { Module } from '@nestjs/common';
import { ApplicationsModule } from '../applications/applications.module';
import { AuditModule } from '../audit/audit.module';
import { ConsoleModule } from '../console/console.module';
import { EventsModule } from '../events/events.module';
import { KeysModule } from '../keys/keys.module';
import { PasskeysModule } from '../passkeys/passkeys.module';
import { StatsModule } from '../stats/stats.module';
import { UpstreamProvidersModule } from '../upstreams/providers/upstream-providers.module';
import { UsersModule } from '../users/users.module';
import { ConsoleApplicationsController } from './console-applications.controller';
import { ConsoleApplications } from './console-applications.service';
import { ConfirmationChecks } from './confirmation-checks';
import { ConsoleAuditController } from './console-audit.controller';
import { ConsoleKeysController } from './console-keys.controller';
import { ConsoleKeys } from './console-keys.service';
import { ConsoleMembersController } from './console-members.controller';
import { ConsoleMemberChanges } from './console-members.service';
import { ConsoleScope } from './console-scope';
import { ConsoleUsersController } from './console-users.controller';
import { ConsoleUsers } from './console-users.service';

/**
 * The per-application console routes (/api/console/applications/...). Apart from the console
 * foundation (src/modules/console) because passkeys builds on the foundation and these routes
 * build on passkeys' confirmations: one folder would make an import cycle.
 */
@Module({
  imports: [
    ConsoleModule,
    PasskeysModule,
    AuditModule,
    ApplicationsModule,
    UsersModule,
    EventsModule,
    StatsModule,
    KeysModule,
    UpstreamProvidersModule,
  ],
  controllers: [
    ConsoleApplicationsController,
    ConsoleUsersController,
    ConsoleKeysController,
    ConsoleAuditController,
    ConsoleMembersController,
  ],
  providers: [
    ConsoleScope,
    ConsoleApplications,
    ConsoleUsers,
    ConsoleKeys,
    ConsoleMemberChanges,
    ConfirmationChecks, // the targets of key.*, client_secret.*, application.*, console_role.*
  ],
})
export class ConsoleAppsModule {}
