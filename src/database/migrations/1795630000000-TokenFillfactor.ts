import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Room on each page of the two tables the token endpoint updates: a refresh marks its parent
 * token rotated, an exchange marks its code consumed, each an update of a column no index holds.
 * PostgreSQL keeps such an update on the same page (a HOT update: no new entry in any of the
 * table's indexes, six on oauth_tokens, four on oauth_codes) only when the page has room for the
 * new row version; at the default fillfactor of 100 a third of the token updates and two fifths
 * of the code updates found none, at 80 a tenth and a fifth, for 6.6 % less WAL per operation
 * (docs/performance/oauth.md, "Room for updates on the token pages"). A fillfactor applies to
 * pages filled from now on; existing pages keep their rows until they are rewritten.
 */
export class TokenFillfactor1795630000000 implements MigrationInterface {
  name = 'TokenFillfactor1795630000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "oauth_tokens" SET (fillfactor = 80)`);
    await queryRunner.query(`ALTER TABLE "oauth_codes" SET (fillfactor = 80)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "oauth_codes" RESET (fillfactor)`);
    await queryRunner.query(`ALTER TABLE "oauth_tokens" RESET (fillfactor)`);
  }
}
