import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Console roles get a table of their own (docs/console.md, "Roles"; docs/security.md, "Console
 * roles and API keys"): until now they were the groups `admin`/`viewer` of `app_users`, which an
 * API key with `group:write` can set, so a key could hand anyone the console. Everyone with
 * console access today keeps it: every enabled relation in group admin or viewer is copied (the
 * owner's own relation is not: the owner's role comes from `applications.owner_id`). Confirmations
 * of a role change are bound to the target user and the role, as key actions are to their key.
 *
 * `down` drops the new table and columns only: the groups in `app_users` were never touched.
 */
export class ConsoleMembers1795420000000 implements MigrationInterface {
  name = 'ConsoleMembers1795420000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "console_members" ("application_id" integer NOT NULL, "user_id" bigint NOT NULL, "role" character varying(16) NOT NULL, "granted_by" bigint, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "chk_console_members_role" CHECK ("role" IN ('admin', 'viewer')), CONSTRAINT "pk_console_members" PRIMARY KEY ("application_id", "user_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_console_members_user_id" ON "console_members"  ("user_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "console_members" ADD CONSTRAINT "fk_console_members_application" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "console_members" ADD CONSTRAINT "fk_console_members_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "console_members" ADD CONSTRAINT "fk_console_members_granted_by" FOREIGN KEY ("granted_by") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(`ALTER TABLE "passkey_ceremonies" ADD "target_user_id" bigint`);
    await queryRunner.query(`ALTER TABLE "passkey_ceremonies" ADD "role" character varying(16)`);
    await queryRunner.query(`ALTER TABLE "passkey_confirmations" ADD "target_user_id" bigint`);
    await queryRunner.query(`ALTER TABLE "passkey_confirmations" ADD "role" character varying(16)`);
    await queryRunner.query(
      `INSERT INTO "console_members" ("application_id", "user_id", "role", "granted_by", "created_at", "updated_at")
       SELECT au.application_id, au.user_id, au."group", NULL, au.created_at, now()
         FROM "app_users" au
         JOIN "applications" a ON a.id = au.application_id
        WHERE au.enabled AND au."group" IN ('admin', 'viewer')
          AND a.owner_id IS DISTINCT FROM au.user_id`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "passkey_confirmations" DROP COLUMN "role"`);
    await queryRunner.query(`ALTER TABLE "passkey_confirmations" DROP COLUMN "target_user_id"`);
    await queryRunner.query(`ALTER TABLE "passkey_ceremonies" DROP COLUMN "role"`);
    await queryRunner.query(`ALTER TABLE "passkey_ceremonies" DROP COLUMN "target_user_id"`);
    await queryRunner.query(`DROP TABLE "console_members"`);
  }
}
