import { MigrationInterface, QueryRunner } from 'typeorm';

export class UsersRelationsTokensEvents1795302850823 implements MigrationInterface {
  name = 'UsersRelationsTokensEvents1795302850823';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "events" ("id" BIGSERIAL NOT NULL, "application_id" integer NOT NULL, "event_type" character varying(64) NOT NULL, "protocol" character varying(16) NOT NULL DEFAULT 'oauth2', "status" character varying(16) NOT NULL DEFAULT 'success', "user_id" bigint, "scope" text NOT NULL DEFAULT '', "description" text NOT NULL DEFAULT '', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_events" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_events_application_created_id" ON "events"  ("application_id", "created_at", "id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "oauth_tokens" ("id" BIGSERIAL NOT NULL, "application_id" integer NOT NULL, "user_id" bigint NOT NULL, "access_token_hash" character varying(64) NOT NULL, "refresh_token_hash" character varying(64), "scope" text NOT NULL DEFAULT '', "access_expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "refresh_expires_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_oauth_tokens" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_oauth_tokens_access_token_hash" ON "oauth_tokens"  ("access_token_hash") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_oauth_tokens_refresh_token_hash" ON "oauth_tokens"  ("refresh_token_hash") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_oauth_tokens_application_user" ON "oauth_tokens"  ("application_id", "user_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "app_users" ("id" BIGSERIAL NOT NULL, "application_id" integer NOT NULL, "user_id" bigint NOT NULL, "group" character varying(16) NOT NULL DEFAULT 't0', "enabled" boolean NOT NULL DEFAULT true, "granted_scope" text, "auth_count" integer NOT NULL DEFAULT '0', "first_auth_at" TIMESTAMP WITH TIME ZONE, "last_auth_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_app_users" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "idx_app_users_user_id" ON "app_users"  ("user_id") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_app_users_application_user" ON "app_users"  ("application_id", "user_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "events" ADD CONSTRAINT "fk_events_application" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "oauth_tokens" ADD CONSTRAINT "fk_oauth_tokens_application" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "oauth_tokens" ADD CONSTRAINT "fk_oauth_tokens_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "app_users" ADD CONSTRAINT "fk_app_users_application" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "app_users" ADD CONSTRAINT "fk_app_users_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "app_users" DROP CONSTRAINT "fk_app_users_user"`);
    await queryRunner.query(`ALTER TABLE "app_users" DROP CONSTRAINT "fk_app_users_application"`);
    await queryRunner.query(`ALTER TABLE "oauth_tokens" DROP CONSTRAINT "fk_oauth_tokens_user"`);
    await queryRunner.query(
      `ALTER TABLE "oauth_tokens" DROP CONSTRAINT "fk_oauth_tokens_application"`,
    );
    await queryRunner.query(`ALTER TABLE "events" DROP CONSTRAINT "fk_events_application"`);
    await queryRunner.query(`DROP INDEX "public"."uq_app_users_application_user"`);
    await queryRunner.query(`DROP INDEX "public"."idx_app_users_user_id"`);
    await queryRunner.query(`DROP TABLE "app_users"`);
    await queryRunner.query(`DROP INDEX "public"."idx_oauth_tokens_application_user"`);
    await queryRunner.query(`DROP INDEX "public"."uq_oauth_tokens_refresh_token_hash"`);
    await queryRunner.query(`DROP INDEX "public"."uq_oauth_tokens_access_token_hash"`);
    await queryRunner.query(`DROP TABLE "oauth_tokens"`);
    await queryRunner.query(`DROP INDEX "public"."idx_events_application_created_id"`);
    await queryRunner.query(`DROP TABLE "events"`);
  }
}
