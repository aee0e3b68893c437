import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Owner console: sessions remember how the user signed in (a first passkey needs a
 * password sign-in within 5 minutes; existing sessions were all password sign-ins), and the
 * audit log of console changes. audit_log.application_id has no foreign key so the record of
 * an application's deletion outlives it (docs/console.md, "Audit log").
 */
export class ConsoleSessionsAudit1795370000000 implements MigrationInterface {
  name = 'ConsoleSessionsAudit1795370000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "oauth_sessions" ADD "auth_method" character varying(16) NOT NULL DEFAULT 'password'`,
    );
    await queryRunner.query(
      `CREATE TABLE "audit_log" ("id" BIGSERIAL NOT NULL, "application_id" integer, "actor_user_id" bigint, "action" character varying(64) NOT NULL, "target" character varying(200) NOT NULL DEFAULT '', "details" jsonb NOT NULL DEFAULT '{}', "ip" character varying(64) NOT NULL DEFAULT '', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_audit_log" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_audit_log_actor_user_id" ON "audit_log" ("actor_user_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_audit_log_application_id_id" ON "audit_log" ("application_id", "id")`,
    );
    await queryRunner.query(
      `ALTER TABLE "audit_log" ADD CONSTRAINT "fk_audit_log_actor_user" FOREIGN KEY ("actor_user_id") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "audit_log" DROP CONSTRAINT "fk_audit_log_actor_user"`);
    await queryRunner.query(`DROP INDEX "public"."idx_audit_log_application_id_id"`);
    await queryRunner.query(`DROP INDEX "public"."idx_audit_log_actor_user_id"`);
    await queryRunner.query(`DROP TABLE "audit_log"`);
    await queryRunner.query(`ALTER TABLE "oauth_sessions" DROP COLUMN "auth_method"`);
  }
}
