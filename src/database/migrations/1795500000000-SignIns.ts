import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The sign-ins the account page lists (docs/accounts.md, "Recent sign-ins"): one row per
 * session started, with its method, client address and User-Agent; purged after 90 days.
 */
export class SignIns1795500000000 implements MigrationInterface {
  name = 'SignIns1795500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "sign_ins" ("id" BIGSERIAL NOT NULL, "user_id" bigint NOT NULL, "method" character varying(16) NOT NULL, "ip" character varying(64) NOT NULL DEFAULT '', "user_agent" character varying(256) NOT NULL DEFAULT '', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_sign_ins" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_sign_ins_created_at" ON "sign_ins"  ("created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_sign_ins_user_id_created_at" ON "sign_ins"  ("user_id", "created_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "sign_ins" ADD CONSTRAINT "fk_sign_ins_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "sign_ins" DROP CONSTRAINT "fk_sign_ins_user"`);
    await queryRunner.query(`DROP INDEX "public"."idx_sign_ins_user_id_created_at"`);
    await queryRunner.query(`DROP INDEX "public"."idx_sign_ins_created_at"`);
    await queryRunner.query(`DROP TABLE "sign_ins"`);
  }
}
