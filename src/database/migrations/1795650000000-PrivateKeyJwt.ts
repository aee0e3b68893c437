import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Client authentication with keys (private_key_jwt, RFC 7523; docs/oauth.md): the method, the
 * client's JWKS (inline, public keys only) or jwks_uri, and the used assertion ids, kept until
 * each assertion expires so that none is accepted twice on any instance.
 */
export class PrivateKeyJwt1795650000000 implements MigrationInterface {
  name = 'PrivateKeyJwt1795650000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "applications" DROP CONSTRAINT "chk_applications_client_auth_method"`,
    );
    await queryRunner.query(`ALTER TABLE "applications" ADD "jwks" jsonb`);
    await queryRunner.query(`ALTER TABLE "applications" ADD "jwks_uri" text`);
    await queryRunner.query(
      `ALTER TABLE "applications" ADD CONSTRAINT "chk_applications_client_auth_method" CHECK ("client_auth_method" IN ('secret', 'none', 'private_key_jwt'))`,
    );
    await queryRunner.query(
      `CREATE TABLE "oauth_client_assertion_jtis" ("id" character varying(64) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "pk_oauth_client_assertion_jtis" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_oauth_client_assertion_jtis_expires_at" ON "oauth_client_assertion_jtis" ("expires_at") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."idx_oauth_client_assertion_jtis_expires_at"`);
    await queryRunner.query(`DROP TABLE "oauth_client_assertion_jtis"`);
    // A private_key_jwt client cannot be kept by the older schema: it is disabled, as `secret`
    // without a secret, so that nothing authenticates as it.
    await queryRunner.query(
      `UPDATE "applications" SET "client_auth_method" = 'secret', "client_secret_hash" = NULL, "enabled" = false WHERE "client_auth_method" = 'private_key_jwt'`,
    );
    await queryRunner.query(
      `ALTER TABLE "applications" DROP CONSTRAINT "chk_applications_client_auth_method"`,
    );
    await queryRunner.query(`ALTER TABLE "applications" DROP COLUMN "jwks_uri"`);
    await queryRunner.query(`ALTER TABLE "applications" DROP COLUMN "jwks"`);
    await queryRunner.query(
      `ALTER TABLE "applications" ADD CONSTRAINT "chk_applications_client_auth_method" CHECK ("client_auth_method" IN ('secret', 'none'))`,
    );
  }
}
