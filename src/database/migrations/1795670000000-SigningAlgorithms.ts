import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * id_tokens signed with PS256, ES256 or EdDSA beside RS256 (docs/oidc.md, "Signing keys"): each
 * alg has its own active and next key (the unique indexes are per alg now), the existing rows
 * are RS256 keys and stay as they are (the column's default says so for any row written without
 * it), and each application may name its alg (`id_token_signed_response_alg`, null = RS256).
 */
export class SigningAlgorithms1795670000000 implements MigrationInterface {
  name = 'SigningAlgorithms1795670000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "signing_keys" ALTER COLUMN "alg" SET DEFAULT 'RS256'`);
    await queryRunner.query(
      `ALTER TABLE "signing_keys" ADD CONSTRAINT "chk_signing_keys_alg" CHECK ("alg" IN ('RS256', 'PS256', 'ES256', 'EdDSA'))`,
    );
    await queryRunner.query(`DROP INDEX "public"."uq_signing_keys_next"`);
    await queryRunner.query(`DROP INDEX "public"."uq_signing_keys_active"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_signing_keys_active" ON "signing_keys" ("alg") WHERE "state" = 'active'`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_signing_keys_next" ON "signing_keys" ("alg") WHERE "state" = 'next'`,
    );
    await queryRunner.query(
      `ALTER TABLE "applications" ADD "id_token_signed_response_alg" character varying(16)`,
    );
    await queryRunner.query(
      `ALTER TABLE "applications" ADD CONSTRAINT "chk_applications_id_token_signed_response_alg" CHECK ("id_token_signed_response_alg" IN ('RS256', 'PS256', 'ES256', 'EdDSA'))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "applications" DROP CONSTRAINT "chk_applications_id_token_signed_response_alg"`,
    );
    await queryRunner.query(
      `ALTER TABLE "applications" DROP COLUMN "id_token_signed_response_alg"`,
    );
    // The older schema has one active and one next key in all: the other algs' keys go (their
    // id_tokens stop verifying; every client is signed RS256 again).
    await queryRunner.query(`DELETE FROM "signing_keys" WHERE "alg" <> 'RS256'`);
    await queryRunner.query(`DROP INDEX "public"."uq_signing_keys_next"`);
    await queryRunner.query(`DROP INDEX "public"."uq_signing_keys_active"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_signing_keys_active" ON "signing_keys" ("state") WHERE "state" = 'active'`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_signing_keys_next" ON "signing_keys" ("state") WHERE "state" = 'next'`,
    );
    await queryRunner.query(`ALTER TABLE "signing_keys" DROP CONSTRAINT "chk_signing_keys_alg"`);
    await queryRunner.query(`ALTER TABLE "signing_keys" ALTER COLUMN "alg" DROP DEFAULT`);
  }
}
