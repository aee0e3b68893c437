import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Self-service accounts (docs/accounts.md): `one_time_codes`, the emailed codes of sign-up,
 * email verification and password reset (hashed, single use, short-lived; purged once expired),
 * and `applications.sign_up_enabled`, whether an application's login page offers sign-up (off
 * for every existing application: turning it on is its owner's decision).
 */
export class AccountsFoundation1795490000000 implements MigrationInterface {
  name = 'AccountsFoundation1795490000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "one_time_codes" ("id" uuid NOT NULL, "purpose" character varying(32) NOT NULL, "user_id" bigint, "email" character varying(254) NOT NULL, "code_hash" character varying(64) NOT NULL, "payload" jsonb, "attempts" integer NOT NULL DEFAULT '0', "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "consumed_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_one_time_codes" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_one_time_codes_user_id" ON "one_time_codes" ("user_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_one_time_codes_expires_at" ON "one_time_codes" ("expires_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "one_time_codes" ADD CONSTRAINT "fk_one_time_codes_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "applications" ADD "sign_up_enabled" boolean NOT NULL DEFAULT false`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "applications" DROP COLUMN "sign_up_enabled"`);
    await queryRunner.query(
      `ALTER TABLE "one_time_codes" DROP CONSTRAINT "fk_one_time_codes_user"`,
    );
    await queryRunner.query(`DROP INDEX "public"."idx_one_time_codes_expires_at"`);
    await queryRunner.query(`DROP INDEX "public"."idx_one_time_codes_user_id"`);
    await queryRunner.query(`DROP TABLE "one_time_codes"`);
  }
}
