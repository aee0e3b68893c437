import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Binds an upstream.unbind passkey confirmation to one upstream identity, as key actions are
 * bound to their key (docs/console.md, "Passkey confirmation"): the ceremony and the token
 * carry the identity id, and spending the token compares it. No foreign key: an unbound
 * identity keeps the record of the confirmation that removed it.
 */
export class UnbindConfirmationTarget1795390000000 implements MigrationInterface {
  name = 'UnbindConfirmationTarget1795390000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "passkey_ceremonies" ADD "upstream_identity_id" integer`);
    await queryRunner.query(
      `ALTER TABLE "passkey_confirmations" ADD "upstream_identity_id" integer`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "passkey_confirmations" DROP COLUMN "upstream_identity_id"`,
    );
    await queryRunner.query(`ALTER TABLE "passkey_ceremonies" DROP COLUMN "upstream_identity_id"`);
  }
}
