import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook replay, resend and test events (docs/webhooks.md): `generation` counts the replays
 * and URL changes of an endpoint, so a delivery round claimed before one cannot move its cursor
 * afterwards; `kind` tells rounds from out-of-band sends in the delivery log (a test event has no
 * event id); `webhook_id` binds a passkey confirmation to one endpoint (docs/console.md).
 */
export class WebhookReplay1795600000000 implements MigrationInterface {
  name = 'WebhookReplay1795600000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "webhook_endpoints" ADD "generation" integer NOT NULL DEFAULT '0'`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" ADD "kind" character varying(16) NOT NULL DEFAULT 'delivery'`,
    );
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" ALTER COLUMN "event_id" DROP NOT NULL`,
    );
    for (const table of ['passkey_ceremonies', 'passkey_confirmations']) {
      await queryRunner.query(`ALTER TABLE "${table}" ADD "webhook_id" integer`);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['passkey_confirmations', 'passkey_ceremonies']) {
      await queryRunner.query(`ALTER TABLE "${table}" DROP COLUMN "webhook_id"`);
    }
    await queryRunner.query(`DELETE FROM "webhook_deliveries" WHERE "event_id" IS NULL`);
    await queryRunner.query(
      `ALTER TABLE "webhook_deliveries" ALTER COLUMN "event_id" SET NOT NULL`,
    );
    await queryRunner.query(`ALTER TABLE "webhook_deliveries" DROP COLUMN "kind"`);
    await queryRunner.query(`ALTER TABLE "webhook_endpoints" DROP COLUMN "generation"`);
  }
}
