import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../../audit/audit.module';
import { ConsoleSessionModule } from '../session/console-session.module';
import { RateLimitModule } from '../../rate-limit/rate-limit.module';
import { AccountPasskeysController } from './account-passkeys.controller';
import { ConfirmationTargetRegistry } from './confirmations/confirmation-target-registry';
import { ConfirmationTargets } from './confirmations/confirmation-targets';
import { ConfirmationsController } from './confirmations/confirmations.controller';
import { PasskeyCeremony } from '../../passkeys/passkey-ceremony.entity';
import { PasskeyConfirmation } from './confirmations/passkey-confirmation.entity';
import { PasskeyConfirmations } from './confirmations/passkey-confirmations.service';
import { PasskeyCredential } from '../../passkeys/passkey-credential.entity';
import { PasskeySessionController } from './passkey-session.controller';
import { PasskeysModule } from '../../passkeys/passkeys.module';
import { PasskeysService } from './passkeys.service';

/**
 * Passkeys of console accounts and the confirmation exchange (docs/console.md). Exports
 * PasskeyConfirmations (the confirmed operations spend tokens with it) and
 * ConfirmationTargetRegistry (the modules performing them register their target checks), so
 * this module imports none of them; and PasskeysService, whose list the account page shows.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([PasskeyCredential, PasskeyCeremony, PasskeyConfirmation]),
    AuditModule,
    ConsoleSessionModule,
    RateLimitModule, // RateLimitGuard: the per-address quota of anonymous sign-in starts
    PasskeysModule, // the relying party, ceremonies, assertions and the sign-in itself
  ],
  controllers: [AccountPasskeysController, ConfirmationsController, PasskeySessionController],
  providers: [
    PasskeyConfirmations,
    PasskeysService,
    ConfirmationTargetRegistry,
    ConfirmationTargets,
  ],
  exports: [PasskeyConfirmations, ConfirmationTargetRegistry, PasskeysService],
})
export class ConsolePasskeysModule {}
