import { UpstreamAccountModule } from './account-upstreams/upstream-account.module';
import { Module } from '@nestjs/common';
import { ConsoleApplicationsModule } from './applications/console-applications.module';
import { ConsoleAuditModule } from './audit/console-audit.module';
import { ConsoleBackchannelLogoutsModule } from './backchannel-logout/console-backchannel-logouts.module';
import { ConsoleKeysModule } from './keys/console-keys.module';
import { ConsoleMembersModule } from './members/console-members.module';
import { ConsolePasskeysModule } from './passkeys/console-passkeys.module';
import { ConsoleRolesModule } from './roles/console-roles.module';
import { ConsoleSessionModule } from './session/console-session.module';
import { ConsoleUsersModule } from './users/console-users.module';
import { ConsoleWebModule } from './web/console-web.module';
import { ConsoleWebhooksModule } from './webhooks/console-webhooks.module';

/**
 * The owner console (docs/console.md): one feature, one Nest module per part. The JSON API
 * under /api/console (session, roles, applications, users, keys, members, audit log, webhooks,
 * back-channel logouts, passkeys and confirmations) and the pages under /console (web).
 */
@Module({
  imports: [
    ConsoleSessionModule,
    ConsoleRolesModule,
    ConsolePasskeysModule,
    ConsoleApplicationsModule,
    ConsoleUsersModule,
    ConsoleKeysModule,
    ConsoleMembersModule,
    ConsoleAuditModule,
    ConsoleWebhooksModule,
    ConsoleBackchannelLogoutsModule,
    ConsoleWebModule,
    UpstreamAccountModule, // the account's bound upstream accounts
  ],
})
export class ConsoleModule {}
