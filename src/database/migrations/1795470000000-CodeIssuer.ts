import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two issuers (docs/oidc.md, "Two issuers"): a code remembers whether its authorization request
 * was sent to the alias issuer `${PUBLIC_BASE_URL}/api/oidc` (`issuer_path` = '/api/oidc'), so the
 * id_tokens of the code and of its refreshes name the issuer the client discovered. NULL, the
 * value of every existing code, is PUBLIC_BASE_URL.
 */
export class CodeIssuer1795470000000 implements MigrationInterface {
  name = 'CodeIssuer1795470000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "oauth_codes" ADD "issuer_path" character varying(16)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "oauth_codes" DROP COLUMN "issuer_path"`);
  }
}
