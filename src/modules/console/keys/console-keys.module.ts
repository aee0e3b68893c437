import { Module } from '@nestjs/common';
import { AuditModule } from '../../audit/audit.module';
import { KeysModule } from '../../keys/keys.module';
import { ConsolePasskeysModule } from '../passkeys/console-passkeys.module';
import { ConsoleRolesModule } from '../roles/console-roles.module';
import { ConsoleSessionModule } from '../session/console-session.module';
import { KeyConfirmationChecks } from './confirmation-checks';
import { ConsoleKeysController } from './console-keys.controller';
import { ConsoleKeys } from './console-keys.service';

/** The API-access tab: an application's keys, every change confirmed with a passkey. */
@Module({
  imports: [
    ConsoleSessionModule,
    ConsoleRolesModule,
    ConsolePasskeysModule,
    AuditModule,
    KeysModule,
  ],
  controllers: [ConsoleKeysController],
  providers: [ConsoleKeys, KeyConfirmationChecks /* key.* */],
})
export class ConsoleKeysModule {}
