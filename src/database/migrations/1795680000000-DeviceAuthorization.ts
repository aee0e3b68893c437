import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The device authorization grant (RFC 8628; docs/oauth.md, "Device authorization grant"): the
 * device codes waiting for, holding or having spent a person's approval, keyed by the SHA-256 of
 * the device code and found by the SHA-256 of the normalised user code (neither code is stored);
 * and the per-client switch that registers a client for the grant (`device_code_grant`, off for
 * every existing client).
 */
export class DeviceAuthorization1795680000000 implements MigrationInterface {
  name = 'DeviceAuthorization1795680000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "oauth_device_codes" ("id" BIGSERIAL NOT NULL, "device_code_hash" character varying(64) NOT NULL, "user_code_hash" character varying(64) NOT NULL, "application_id" integer NOT NULL, "scope" text NOT NULL, "status" character varying(16) NOT NULL DEFAULT 'pending', "interval_seconds" integer NOT NULL, "last_polled_at" TIMESTAMP WITH TIME ZONE, "user_id" bigint, "auth_time" TIMESTAMP WITH TIME ZONE, "auth_method" character varying(16), "issuer_path" character varying(16), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "decided_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "chk_oauth_device_codes_status" CHECK ("status" IN ('pending', 'approved', 'denied', 'redeemed')), CONSTRAINT "pk_oauth_device_codes" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_oauth_device_codes_device_code_hash" ON "oauth_device_codes" ("device_code_hash") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_oauth_device_codes_user_code_hash" ON "oauth_device_codes" ("user_code_hash") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_oauth_device_codes_application_id" ON "oauth_device_codes" ("application_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_oauth_device_codes_user_id" ON "oauth_device_codes" ("user_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_oauth_device_codes_expires_at" ON "oauth_device_codes" ("expires_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "oauth_device_codes" ADD CONSTRAINT "fk_oauth_device_codes_application" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "oauth_device_codes" ADD CONSTRAINT "fk_oauth_device_codes_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "applications" ADD "device_code_grant" boolean NOT NULL DEFAULT false`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "applications" DROP COLUMN "device_code_grant"`);
    await queryRunner.query(
      `ALTER TABLE "oauth_device_codes" DROP CONSTRAINT "fk_oauth_device_codes_user"`,
    );
    await queryRunner.query(
      `ALTER TABLE "oauth_device_codes" DROP CONSTRAINT "fk_oauth_device_codes_application"`,
    );
    await queryRunner.query(`DROP INDEX "public"."idx_oauth_device_codes_expires_at"`);
    await queryRunner.query(`DROP INDEX "public"."idx_oauth_device_codes_user_id"`);
    await queryRunner.query(`DROP INDEX "public"."idx_oauth_device_codes_application_id"`);
    await queryRunner.query(`DROP INDEX "public"."uq_oauth_device_codes_user_code_hash"`);
    await queryRunner.query(`DROP INDEX "public"."uq_oauth_device_codes_device_code_hash"`);
    await queryRunner.query(`DROP TABLE "oauth_device_codes"`);
  }
}
