import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The application setting naming upstream providers a user must have bound to authorize
 * (docs/upstreams.md, "Required upstream"). Empty: nothing required.
 */
export class RequiredUpstreams1795386000000 implements MigrationInterface {
  name = 'RequiredUpstreams1795386000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "applications" ADD "required_upstreams" text array NOT NULL DEFAULT '{}'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "applications" DROP COLUMN "required_upstreams"`);
  }
}
