import { Module } from '@nestjs/common';
import { SigningKeysService } from './signing-keys.service';

/** The OpenID Connect signing keys: table `signing_keys`, JWKS, sign and verify (docs/oidc.md). */
@Module({
  providers: [SigningKeysService],
  exports: [SigningKeysService],
})
export class SigningKeysModule {}
