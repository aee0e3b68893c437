import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { ConsoleModule } from '../console/console.module';
import { KeysModule } from '../keys/keys.module';
import { RateLimitModule } from '../rate-limit/rate-limit.module';
import { UpstreamIdentitiesModule } from '../upstreams/identities/upstream-identities.module';
import { UpstreamProvidersModule } from '../upstreams/providers/upstream-providers.module';
import { AccountPasskeysController } from './account-passkeys.controller';
import { ConfirmationTargets } from './confirmation-targets';
import { ConfirmationsController } from './confirmations.controller';
import { PasskeyAssertions } from './passkey-assertions';
import { PasskeyCeremonies } from './passkey-ceremonies';
import { PasskeyCeremony } from './passkey-ceremony.entity';
import { PasskeyConfirmation } from './passkey-confirmation.entity';
import { PasskeyConfirmations } from './passkey-confirmations.service';
import { PasskeyCredential } from './passkey-credential.entity';
import { PasskeySessionController } from './passkey-session.controller';
import { PasskeysService } from './passkeys.service';
import { RelyingParty } from './relying-party';

/**
 * Passkeys of console accounts and the confirmation exchange (docs/console.md). Exports
 * PasskeyConfirmations: the console's key, secret and delete routes spend tokens with it.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([PasskeyCredential, PasskeyCeremony, PasskeyConfirmation]),
    AuditModule,
    ConsoleModule,
    KeysModule,
    RateLimitModule, // the per-address quota of anonymous sign-in starts
    UpstreamIdentitiesModule,
    UpstreamProvidersModule, // an upstream.bind confirmation names an enabled provider
  ],
  controllers: [AccountPasskeysController, ConfirmationsController, PasskeySessionController],
  providers: [
    RelyingParty,
    PasskeyCeremonies,
    PasskeyAssertions,
    PasskeyConfirmations,
    PasskeysService,
    ConfirmationTargets,
  ],
  exports: [PasskeyConfirmations],
})
export class PasskeysModule {}
