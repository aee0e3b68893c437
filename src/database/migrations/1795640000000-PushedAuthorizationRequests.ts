import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pushed authorization requests (RFC 9126; docs/oauth.md): the requests waiting for their one use
 * at /authorize, keyed by the SHA-256 of their request_uri, and the per-client switch that
 * requires them (`require_pushed_authorization_requests`, off for every existing client).
 */
export class PushedAuthorizationRequests1795640000000 implements MigrationInterface {
  name = 'PushedAuthorizationRequests1795640000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "oauth_pushed_authorization_requests" ("id" character varying(64) NOT NULL, "application_id" integer NOT NULL, "parameters" jsonb NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "pk_oauth_pushed_authorization_requests" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_oauth_pushed_authorization_requests_expires_at" ON "oauth_pushed_authorization_requests" ("expires_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_oauth_pushed_requests_application_id_expires_at" ON "oauth_pushed_authorization_requests" ("application_id", "expires_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "oauth_pushed_authorization_requests" ADD CONSTRAINT "fk_oauth_pushed_authorization_requests_application" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "applications" ADD "require_pushed_authorization_requests" boolean NOT NULL DEFAULT false`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "applications" DROP COLUMN "require_pushed_authorization_requests"`,
    );
    await queryRunner.query(
      `ALTER TABLE "oauth_pushed_authorization_requests" DROP CONSTRAINT "fk_oauth_pushed_authorization_requests_application"`,
    );
    await queryRunner.query(
      `DROP INDEX "public"."idx_oauth_pushed_requests_application_id_expires_at"`,
    );
    await queryRunner.query(
      `DROP INDEX "public"."idx_oauth_pushed_authorization_requests_expires_at"`,
    );
    await queryRunner.query(`DROP TABLE "oauth_pushed_authorization_requests"`);
  }
}
