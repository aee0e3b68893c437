import { Module } from '@nestjs/common';
import { JwksController } from './jwks.controller';
import { SigningKeysService } from './signing-keys.service';

/** The OpenID Connect signing keys: table `signing_keys`, JWKS, sign and verify (docs/oidc.md). */
@Module({
  controllers: [JwksController],
  providers: [SigningKeysService],
  exports: [SigningKeysService],
})
export class SigningKeysModule {}
