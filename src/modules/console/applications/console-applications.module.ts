import { Module } from '@nestjs/common';
import { ApplicationsModule } from '../../applications/applications.module';
import { AuditModule } from '../../audit/audit.module';
import { UpstreamProvidersModule } from '../../upstreams/providers/upstream-providers.module';
import { UsersModule } from '../../users/users.module';
import { ConsolePasskeysModule } from '../passkeys/console-passkeys.module';
import { ConsoleRolesModule } from '../roles/console-roles.module';
import { ConsoleSessionModule } from '../session/console-session.module';
import { ApplicationConfirmationChecks } from './confirmation-checks';
import { ConsoleApplicationsController } from './console-applications.controller';
import { ConsoleApplications } from './console-applications.service';

/** The console's applications: list, create, settings, client secret, delete. */
@Module({
  imports: [
    ConsoleSessionModule,
    ConsoleRolesModule,
    ConsolePasskeysModule,
    AuditModule,
    ApplicationsModule,
    UsersModule, // the creator's relation
    UpstreamProvidersModule, // required upstreams name configured providers
  ],
  controllers: [ConsoleApplicationsController],
  providers: [
    ConsoleApplications,
    ApplicationConfirmationChecks, // client_secret.reset, client_settings.update, application.delete
  ],
})
export class ConsoleApplicationsModule {}
