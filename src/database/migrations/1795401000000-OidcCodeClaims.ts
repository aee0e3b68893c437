import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * OpenID Connect (docs/oidc.md): a code carries the request's `nonce` (OIDC Core
 * 3.1.2.1, returned in the id_token) and `auth_time`, the sign-in time of the session that
 * granted it (OIDC Core 2), which the id_tokens of the code's refreshes repeat (OIDC Core 12.2).
 */
export class OidcCodeClaims1795401000000 implements MigrationInterface {
  name = 'OidcCodeClaims1795401000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "oauth_codes" ADD "nonce" text`);
    await queryRunner.query(`ALTER TABLE "oauth_codes" ADD "auth_time" TIMESTAMP WITH TIME ZONE`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "oauth_codes" DROP COLUMN "auth_time"`);
    await queryRunner.query(`ALTER TABLE "oauth_codes" DROP COLUMN "nonce"`);
  }
}
