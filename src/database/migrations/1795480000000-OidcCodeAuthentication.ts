import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * OpenID Connect authentication information of a code (docs/oidc.md): `auth_method`, how the
 * granting session signed in (oauth_sessions.auth_method, the id_token's `amr`, RFC 8176), and
 * `acr`, the Authentication Context Class stated when the request asked for one (OIDC Core 2).
 * The id_tokens of the code's refreshes repeat both (OIDC Core 12.2). Null on older codes.
 */
export class OidcCodeAuthentication1795480000000 implements MigrationInterface {
  name = 'OidcCodeAuthentication1795480000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "oauth_codes" ADD "auth_method" character varying(16)`);
    await queryRunner.query(`ALTER TABLE "oauth_codes" ADD "acr" character varying(64)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "oauth_codes" DROP COLUMN "acr"`);
    await queryRunner.query(`ALTER TABLE "oauth_codes" DROP COLUMN "auth_method"`);
  }
}
