import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pending authorization requests travel sealed with the browser (ADR 0003): the
 * table of parked requests goes; what remains server-side is the set of requests already
 * answered (single use), keyed by the SHA-256 of the request id, kept until the request expires.
 * Requests parked at upgrade time are dropped: their users start the sign-in again.
 */
export class StatelessPendingRequests1795340000000 implements MigrationInterface {
  name = 'StatelessPendingRequests1795340000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "oauth_pending_authorizations"`);
    await queryRunner.query(
      `CREATE TABLE "oauth_spent_authorization_requests" ("id" character varying(64) NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "pk_oauth_spent_authorization_requests" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_oauth_spent_authorization_requests_expires_at" ON "oauth_spent_authorization_requests" ("expires_at") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP INDEX "public"."idx_oauth_spent_authorization_requests_expires_at"`,
    );
    await queryRunner.query(`DROP TABLE "oauth_spent_authorization_requests"`);
    await queryRunner.query(
      `CREATE TABLE "oauth_pending_authorizations" ("id" character varying(64) NOT NULL, "application_id" integer NOT NULL, "request" jsonb NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_oauth_pending_authorizations" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_oauth_pending_authorizations_expires_at" ON "oauth_pending_authorizations"  ("expires_at") `,
    );
    await queryRunner.query(
      `ALTER TABLE "oauth_pending_authorizations" ADD CONSTRAINT "fk_oauth_pending_authorizations_application" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }
}
