import { MigrationInterface, QueryRunner } from 'typeorm';

export class Foundation1795302517432 implements MigrationInterface {
  name = 'Foundation1795302517432';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "applications" ("id" SERIAL NOT NULL, "name" character varying(100) NOT NULL, "description" text NOT NULL DEFAULT '', "home_url" text NOT NULL DEFAULT '', "logo" text NOT NULL DEFAULT '', "enabled" boolean NOT NULL DEFAULT true, "is_public" boolean NOT NULL DEFAULT false, "owner_id" bigint, "client_id" character varying(64) NOT NULL, "client_secret_hash" character varying(64), "client_auth_method" character varying(16) NOT NULL DEFAULT 'secret', "redirect_uris" text array NOT NULL DEFAULT '{}', "rate_limit_per_minute" integer, "user_quota" integer, "require_verified_email" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "chk_applications_client_auth_method" CHECK ("client_auth_method" IN ('secret', 'none')), CONSTRAINT "pk_applications" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_applications_client_id" ON "applications"  ("client_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "api_keys" ("id" SERIAL NOT NULL, "application_id" integer NOT NULL, "name" character varying(100) NOT NULL, "key_prefix" character varying(12) NOT NULL, "key_hash" character varying(64) NOT NULL, "scopes" text array NOT NULL DEFAULT '{}', "status" character varying(16) NOT NULL DEFAULT 'active', "expires_at" TIMESTAMP WITH TIME ZONE, "replaced_by_id" integer, "last_used_at" TIMESTAMP WITH TIME ZONE, "revoked_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_api_keys" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_api_keys_application_id" ON "api_keys"  ("application_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_api_keys_key_hash" ON "api_keys"  ("key_hash") `,
    );
    await queryRunner.query(
      `CREATE TABLE "users" ("id" BIGSERIAL NOT NULL, "username" character varying(64) NOT NULL, "email" character varying(254) NOT NULL, "nickname" character varying(64) NOT NULL DEFAULT '', "avatar" text NOT NULL DEFAULT '', "email_verified" boolean NOT NULL DEFAULT false, "password_hash" text, "last_login_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_users" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_users_username" ON "users"  ("username") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_users_email" ON "users"  ("email") `);
    await queryRunner.query(
      `CREATE TABLE "user_emails" ("id" BIGSERIAL NOT NULL, "user_id" bigint NOT NULL, "email" character varying(254) NOT NULL, "verified" boolean NOT NULL DEFAULT false, "primary" boolean NOT NULL DEFAULT false, "visibility" character varying(16) NOT NULL DEFAULT 'public', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_user_emails" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_user_emails_user_id" ON "user_emails"  ("user_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_user_emails_email" ON "user_emails"  ("email") `,
    );
    await queryRunner.query(
      `ALTER TABLE "api_keys" ADD CONSTRAINT "fk_api_keys_application" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "user_emails" ADD CONSTRAINT "fk_user_emails_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "user_emails" DROP CONSTRAINT "fk_user_emails_user"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP CONSTRAINT "fk_api_keys_application"`);
    await queryRunner.query(`DROP INDEX "public"."uq_user_emails_email"`);
    await queryRunner.query(`DROP INDEX "public"."idx_user_emails_user_id"`);
    await queryRunner.query(`DROP TABLE "user_emails"`);
    await queryRunner.query(`DROP INDEX "public"."uq_users_email"`);
    await queryRunner.query(`DROP INDEX "public"."uq_users_username"`);
    await queryRunner.query(`DROP TABLE "users"`);
    await queryRunner.query(`DROP INDEX "public"."uq_api_keys_key_hash"`);
    await queryRunner.query(`DROP INDEX "public"."idx_api_keys_application_id"`);
    await queryRunner.query(`DROP TABLE "api_keys"`);
    await queryRunner.query(`DROP INDEX "public"."uq_applications_client_id"`);
    await queryRunner.query(`DROP TABLE "applications"`);
  }
}
