import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PasskeyAssertions } from './passkey-assertions';
import { PasskeyCeremonies } from './passkey-ceremonies';
import { PasskeyCeremony } from './passkey-ceremony.entity';
import { PasskeyCredential } from './passkey-credential.entity';
import { PasskeyList } from './passkey-list';
import { PasskeySignInService } from './sign-in/passkey-sign-in.service';
import { RelyingParty } from './relying-party';

/**
 * Passkeys (docs/console.md, docs/accounts.md): the relying party, single-use ceremonies,
 * assertion checks, the discoverable sign-in built on them with its form and script, and a
 * user's list. The login page, the account page and the console all use it; the console's own
 * module (ConsolePasskeysModule) adds registration and the confirmation of console actions.
 */
@Module({
  imports: [TypeOrmModule.forFeature([PasskeyCredential, PasskeyCeremony])],
  providers: [
    RelyingParty,
    PasskeyCeremonies,
    PasskeyAssertions,
    PasskeySignInService,
    PasskeyList,
  ],
  exports: [RelyingParty, PasskeyCeremonies, PasskeyAssertions, PasskeySignInService, PasskeyList],
})
export class PasskeysModule {}
