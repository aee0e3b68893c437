import { Module } from '@nestjs/common';
import { AuditModule } from '../../audit/audit.module';
import { ConsoleSessionModule } from '../../console/session/console-session.module';
import { PasskeysModule } from '../../console/passkeys/passkeys.module';
import { UpstreamIdentitiesModule } from '../identities/upstream-identities.module';
import { UpstreamProvidersModule } from '../providers/upstream-providers.module';
import { UpstreamSignInModule } from '../sign-in/upstream-sign-in.module';
import { AccountUpstreamsController } from './account-upstreams.controller';
import { UpstreamConfirmationChecks } from './confirmation-checks';

/**
 * The console account page's bound upstream accounts (list, bind, unbind) and the target checks
 * of their `upstream.bind`/`upstream.unbind` confirmations (docs/upstreams.md).
 */
@Module({
  imports: [
    ConsoleSessionModule, // the console session and route guard
    PasskeysModule, // upstream.bind/unbind confirmations: their target checks, spending tokens
    AuditModule, // unbinding is recorded in the audit log
    UpstreamSignInModule, // a binding starts as a trip to the provider
    UpstreamProvidersModule,
    UpstreamIdentitiesModule,
  ],
  controllers: [AccountUpstreamsController],
  providers: [UpstreamConfirmationChecks],
})
export class UpstreamAccountModule {}
