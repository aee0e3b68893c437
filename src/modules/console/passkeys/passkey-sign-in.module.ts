import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PasskeyAssertions } from './passkey-assertions';
import { PasskeyCeremonies } from './passkey-ceremonies';
import { PasskeyCeremony } from './passkey-ceremony.entity';
import { PasskeyCredential } from './passkey-credential.entity';
import { PasskeySignInService } from './passkey-sign-in.service';
import { RelyingParty } from './relying-party';

/**
 * The WebAuthn core of passkeys: the relying party, single-use ceremonies, assertion checks and
 * the discoverable sign-in built on them. Its own module so that a sign-in page outside the
 * console (the OAuth login page) verifies passkeys without importing the console; PasskeysModule
 * builds registration and confirmations on the same providers.
 */
@Module({
  imports: [TypeOrmModule.forFeature([PasskeyCredential, PasskeyCeremony])],
  providers: [RelyingParty, PasskeyCeremonies, PasskeyAssertions, PasskeySignInService],
  exports: [RelyingParty, PasskeyCeremonies, PasskeyAssertions, PasskeySignInService],
})
export class PasskeySignInModule {}
