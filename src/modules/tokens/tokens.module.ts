import { Module } from '@nestjs/common';
import { TokensRepository } from './tokens.repository';

/**
 * `oauth_tokens`: the OAuth module issues and rotates (composing token-sql.ts into its one
 * statement), the users module revokes a relation's tokens; both through this module, which
 * imports neither (docs/architecture.md).
 */
@Module({
  providers: [TokensRepository],
  exports: [TokensRepository],
})
export class TokensModule {}
