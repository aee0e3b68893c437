import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks (docs/webhooks.md): the endpoints of each application with their delivery cursor,
 * retry state and lease, and the log of the last delivery attempts of each endpoint.
 */
export class Webhooks1795530000000 implements MigrationInterface {
  name = 'Webhooks1795530000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "webhook_endpoints" ("id" SERIAL NOT NULL, "application_id" integer NOT NULL, "url" character varying(2048) NOT NULL, "description" character varying(200) NOT NULL DEFAULT '', "event_types" text array NOT NULL DEFAULT '{}', "enabled" boolean NOT NULL DEFAULT true, "disabled_reason" text, "secret" text NOT NULL, "previous_secret" text, "previous_secret_until" TIMESTAMP WITH TIME ZONE, "cursor" bigint NOT NULL DEFAULT '0', "failing_since" TIMESTAMP WITH TIME ZONE, "next_attempt_at" TIMESTAMP WITH TIME ZONE, "attempts" integer NOT NULL DEFAULT '0', "lease_owner" character varying(64), "lease_until" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_webhook_endpoints" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_webhook_endpoints_application_id" ON "webhook_endpoints" ("application_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "webhook_deliveries" ("id" BIGSERIAL NOT NULL, "endpoint_id" integer NOT NULL, "event_id" bigint NOT NULL, "attempted_at" TIMESTAMP WITH TIME ZONE NOT NULL, "status_code" integer, "latency_ms" integer NOT NULL, "error" character varying(500), "next_attempt_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "pk_webhook_deliveries" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_webhook_deliveries_endpoint_id_id" ON "webhook_deliveries" ("endpoint_id", "id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "fk_webhook_endpoints_application" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "fk_webhook_deliveries_endpoint" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "fk_webhook_deliveries_endpoint"`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_endpoints" DROP CONSTRAINT "fk_webhook_endpoints_application"`,
    );
    await queryRunner.query(`DROP INDEX "public"."idx_webhook_deliveries_endpoint_id_id"`);
    await queryRunner.query(`DROP TABLE "webhook_deliveries"`);
    await queryRunner.query(`DROP INDEX "public"."idx_webhook_endpoints_application_id"`);
    await queryRunner.query(`DROP TABLE "webhook_endpoints"`);
  }
}
