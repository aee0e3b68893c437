import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Binds a passkey confirmation to the change it confirms (docs/console.md, "The confirmation
 * exchange"): `change_digest` holds the SHA-256 of the OAuth client settings a
 * client_settings.update confirms, `provider_id` the provider an upstream.bind confirms. The
 * ceremony carries them to the token, and spending the token compares them.
 */
export class ChangeBoundConfirmations1795430000000 implements MigrationInterface {
  name = 'ChangeBoundConfirmations1795430000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['passkey_ceremonies', 'passkey_confirmations']) {
      await queryRunner.query(`ALTER TABLE "${table}" ADD "change_digest" character varying(64)`);
      await queryRunner.query(`ALTER TABLE "${table}" ADD "provider_id" character varying(64)`);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['passkey_confirmations', 'passkey_ceremonies']) {
      await queryRunner.query(`ALTER TABLE "${table}" DROP COLUMN "provider_id"`);
      await queryRunner.query(`ALTER TABLE "${table}" DROP COLUMN "change_digest"`);
    }
  }
}
