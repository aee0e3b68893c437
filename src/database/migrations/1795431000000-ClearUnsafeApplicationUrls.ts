import { MigrationInterface, QueryRunner } from 'typeorm';

// What the rule of applications/web-url.ts accepts, as a PostgreSQL regular expression: https
// anywhere, http only on a loopback host. Deliberately no wider than that rule: a value it
// does not match is cleared.
const ALLOWED = String.raw`^(https://[^/?#]|http://([^/?#@]*@)?(localhost|127\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}|\[::1\])(:[0-9]*)?([/?#]|$))`;
const UNSAFE_CHARACTERS = String.raw`[[:space:][:cntrl:]\\]`;

/**
 * `home_url` and `logo` are shown to others (consent page, console, GET /api/v1/app/me), and
 * until now any parseable URL was stored, `javascript:` included. New values must be https (or
 * http on a loopback host); existing values that are not are emptied here, as if never set
 * (docs/security.md, "URLs shown to others"). Not reversible: `down` leaves them empty.
 */
export class ClearUnsafeApplicationUrls1795431000000 implements MigrationInterface {
  name = 'ClearUnsafeApplicationUrls1795431000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const column of ['home_url', 'logo']) {
      await queryRunner.query(
        `UPDATE "applications" SET "${column}" = ''
          WHERE "${column}" <> '' AND ("${column}" !~* $1 OR "${column}" ~ $2)`,
        [ALLOWED, UNSAFE_CHARACTERS],
      );
    }
  }

  public async down(): Promise<void> {
    // The cleared values are gone on purpose; nothing to restore.
  }
}
