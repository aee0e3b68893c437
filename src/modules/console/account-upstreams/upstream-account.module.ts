import { Module } from '@nestjs/common';
import { AuditModule } from '../../audit/audit.module';
import { ConsoleSessionModule } from '../session/console-session.module';
import { ConsolePasskeysModule } from '../passkeys/console-passkeys.module';
import { UpstreamIdentitiesModule } from '../../upstreams/identities/upstream-identities.module';
import { UpstreamProvidersModule } from '../../upstreams/providers/upstream-providers.module';
import { UpstreamSignInModule } from '../../interaction/upstream-sign-in/upstream-sign-in.module';
import { AccountUpstreamsController } from './account-upstreams.controller';
import { UpstreamConfirmationChecks } from './confirmation-checks';

/**
 * The console account page's bound upstream accounts (list, bind, unbind) and the target checks
 * of their `upstream.bind`/`upstream.unbind` confirmations (docs/upstreams.md).
 */
@Module({
  imports: [
    ConsoleSessionModule, // the console session and route guard
    ConsolePasskeysModule, // upstream.bind/unbind confirmations: their target checks, spending tokens
    AuditModule, // unbinding is recorded in the audit log
    UpstreamSignInModule, // a binding starts as a trip to the provider
    UpstreamProvidersModule,
    UpstreamIdentitiesModule,
  ],
  controllers: [AccountUpstreamsController],
  providers: [UpstreamConfirmationChecks],
})
export class UpstreamAccountModule {}
