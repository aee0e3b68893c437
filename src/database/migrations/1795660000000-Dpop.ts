import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sender-constrained tokens (DPoP, RFC 9449; docs/oauth.md): the key thumbprint each access token
 * (and a public client's refresh token) is bound to, null for the bearer tokens every existing
 * row holds; the per-client switch that requires DPoP (`dpop_bound_access_tokens`, off for every
 * existing client); a client's security profile (`fapi2` or none, none for every existing
 * client); and the used proof ids, kept while each proof's iat is acceptable so that
 * none is accepted twice on any instance.
 */
export class Dpop1795660000000 implements MigrationInterface {
  name = 'Dpop1795660000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "applications" ADD "dpop_bound_access_tokens" boolean NOT NULL DEFAULT false`,
    );
    await queryRunner.query(
      `ALTER TABLE "applications" ADD "security_profile" character varying(16)`,
    );
    await queryRunner.query(
      `ALTER TABLE "applications" ADD CONSTRAINT "chk_applications_security_profile" CHECK ("security_profile" IN ('fapi2'))`,
    );
    await queryRunner.query(`ALTER TABLE "oauth_tokens" ADD "dpop_jkt" character varying(43)`);
    await queryRunner.query(
      `ALTER TABLE "oauth_tokens" ADD "refresh_dpop_jkt" character varying(43)`,
    );
    await queryRunner.query(
      `CREATE TABLE "oauth_dpop_proof_jtis" ("id" character varying(64) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "pk_oauth_dpop_proof_jtis" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_oauth_dpop_proof_jtis_expires_at" ON "oauth_dpop_proof_jtis" ("expires_at") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."idx_oauth_dpop_proof_jtis_expires_at"`);
    await queryRunner.query(`DROP TABLE "oauth_dpop_proof_jtis"`);
    // A bound token cannot be kept by the older schema, which would take it as a bearer token:
    // it is revoked instead.
    await queryRunner.query(
      `UPDATE "oauth_tokens" SET "revoked_at" = now() WHERE "revoked_at" IS NULL AND ("dpop_jkt" IS NOT NULL OR "refresh_dpop_jkt" IS NOT NULL)`,
    );
    await queryRunner.query(`ALTER TABLE "oauth_tokens" DROP COLUMN "refresh_dpop_jkt"`);
    await queryRunner.query(`ALTER TABLE "oauth_tokens" DROP COLUMN "dpop_jkt"`);
    // A fapi2 client cannot be kept by the older schema, which would serve it without the
    // profile's requirements: it is disabled instead.
    await queryRunner.query(
      `UPDATE "applications" SET "enabled" = false WHERE "security_profile" IS NOT NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE "applications" DROP CONSTRAINT "chk_applications_security_profile"`,
    );
    await queryRunner.query(`ALTER TABLE "applications" DROP COLUMN "security_profile"`);
    await queryRunner.query(`ALTER TABLE "applications" DROP COLUMN "dpop_bound_access_tokens"`);
  }
}
