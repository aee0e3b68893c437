/** OAuth provider: authorization codes, browser sessions, pending authorizations, token families. */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class OAuthCodesSessionsPending1795320000000 implements MigrationInterface {
  name = 'OAuthCodesSessionsPending1795320000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "oauth_codes" ("id" BIGSERIAL NOT NULL, "code_hash" character varying(64) NOT NULL, "application_id" integer NOT NULL, "user_id" bigint NOT NULL, "redirect_uri" text NOT NULL, "code_challenge" character varying(43), "scope" text NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "consumed_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_oauth_codes" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_oauth_codes_code_hash" ON "oauth_codes"  ("code_hash") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_oauth_codes_application_id" ON "oauth_codes"  ("application_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_oauth_codes_user_id" ON "oauth_codes"  ("user_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "oauth_sessions" ("id" character varying(64) NOT NULL, "user_id" bigint NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_oauth_sessions" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_oauth_sessions_user_id" ON "oauth_sessions"  ("user_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_oauth_sessions_expires_at" ON "oauth_sessions"  ("expires_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "oauth_pending_authorizations" ("id" character varying(64) NOT NULL, "application_id" integer NOT NULL, "request" jsonb NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_oauth_pending_authorizations" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_oauth_pending_authorizations_expires_at" ON "oauth_pending_authorizations"  ("expires_at") `,
    );
    await queryRunner.query(`ALTER TABLE "oauth_tokens" ADD "family_id" uuid`);
    await queryRunner.query(`ALTER TABLE "oauth_tokens" ADD "code_id" bigint`);
    await queryRunner.query(`ALTER TABLE "oauth_tokens" ADD "parent_id" bigint`);
    await queryRunner.query(`ALTER TABLE "oauth_tokens" ADD "rotated_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(
      `CREATE INDEX "idx_oauth_tokens_family_id" ON "oauth_tokens"  ("family_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_oauth_tokens_code_id" ON "oauth_tokens"  ("code_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "oauth_codes" ADD CONSTRAINT "fk_oauth_codes_application" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "oauth_codes" ADD CONSTRAINT "fk_oauth_codes_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "oauth_sessions" ADD CONSTRAINT "fk_oauth_sessions_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "oauth_pending_authorizations" ADD CONSTRAINT "fk_oauth_pending_authorizations_application" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "oauth_pending_authorizations" DROP CONSTRAINT "fk_oauth_pending_authorizations_application"`,
    );
    await queryRunner.query(
      `ALTER TABLE "oauth_sessions" DROP CONSTRAINT "fk_oauth_sessions_user"`,
    );
    await queryRunner.query(`ALTER TABLE "oauth_codes" DROP CONSTRAINT "fk_oauth_codes_user"`);
    await queryRunner.query(
      `ALTER TABLE "oauth_codes" DROP CONSTRAINT "fk_oauth_codes_application"`,
    );
    await queryRunner.query(`DROP INDEX "public"."idx_oauth_tokens_code_id"`);
    await queryRunner.query(`DROP INDEX "public"."idx_oauth_tokens_family_id"`);
    await queryRunner.query(`ALTER TABLE "oauth_tokens" DROP COLUMN "rotated_at"`);
    await queryRunner.query(`ALTER TABLE "oauth_tokens" DROP COLUMN "parent_id"`);
    await queryRunner.query(`ALTER TABLE "oauth_tokens" DROP COLUMN "code_id"`);
    await queryRunner.query(`ALTER TABLE "oauth_tokens" DROP COLUMN "family_id"`);
    await queryRunner.query(`DROP INDEX "public"."idx_oauth_pending_authorizations_expires_at"`);
    await queryRunner.query(`DROP TABLE "oauth_pending_authorizations"`);
    await queryRunner.query(`DROP INDEX "public"."idx_oauth_sessions_expires_at"`);
    await queryRunner.query(`DROP INDEX "public"."idx_oauth_sessions_user_id"`);
    await queryRunner.query(`DROP TABLE "oauth_sessions"`);
    await queryRunner.query(`DROP INDEX "public"."idx_oauth_codes_user_id"`);
    await queryRunner.query(`DROP INDEX "public"."idx_oauth_codes_application_id"`);
    await queryRunner.query(`DROP INDEX "public"."uq_oauth_codes_code_hash"`);
    await queryRunner.query(`DROP TABLE "oauth_codes"`);
  }
}
