import { MigrationInterface, QueryRunner } from 'typeorm';

/** At most this many colliding values are spelled out; the rest are counted. */
const LISTED = 50;

interface Collision {
  kind: string;
  value: string;
  members: string;
}

// One row per lower-cased value held by more than one row, with every holder spelled out.
const COLLISIONS_SQL = `
  SELECT 'username' AS kind, lower(username) AS value,
         string_agg(format('user %s %L', id, username), ', ' ORDER BY id) AS members
    FROM users GROUP BY lower(username) HAVING count(*) > 1
  UNION ALL
  SELECT 'email', lower(email),
         string_agg(format('user %s %L', id, email), ', ' ORDER BY id)
    FROM users GROUP BY lower(email) HAVING count(*) > 1
  UNION ALL
  SELECT 'user_emails.email', lower(email),
         string_agg(format('row %s of user %s %L', id, user_id, email), ', ' ORDER BY id)
    FROM user_emails GROUP BY lower(email) HAVING count(*) > 1
  ORDER BY 1, 2`;

/**
 * Usernames and emails are unique whatever their case: "Alice" and "alice"
 * are one account, and sign-in accepts either spelling. The case-sensitive unique indexes are
 * replaced by unique indexes on lower(...), which also serve the case-insensitive look-ups of
 * the login form. The username keeps the case it was created with; emails are stored
 * lower-cased already (UsersService), the index covers rows written otherwise.
 *
 * A database where two accounts already differ only by case cannot get these indexes: the
 * migration then stops before changing anything and lists the collisions, for an operator to
 * resolve (rename or remove accounts) before running it again.
 */
export class CaseInsensitiveUserNames1795360000000 implements MigrationInterface {
  name = 'CaseInsensitiveUserNames1795360000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const collisions = (await queryRunner.query(COLLISIONS_SQL)) as Collision[];
    if (collisions.length > 0) throw new Error(collisionReport(collisions));
    await queryRunner.query(`DROP INDEX "public"."uq_users_username"`);
    await queryRunner.query(`DROP INDEX "public"."uq_users_email"`);
    await queryRunner.query(`DROP INDEX "public"."uq_user_emails_email"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_users_lower_username" ON "users" (lower("username"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_users_lower_email" ON "users" (lower("email"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_user_emails_lower_email" ON "user_emails" (lower("email"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."uq_user_emails_lower_email"`);
    await queryRunner.query(`DROP INDEX "public"."uq_users_lower_email"`);
    await queryRunner.query(`DROP INDEX "public"."uq_users_lower_username"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_user_emails_email" ON "user_emails" ("email")`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_users_email" ON "users" ("email")`);
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_users_username" ON "users" ("username")`);
  }
}

function collisionReport(collisions: Collision[]): string {
  const lines = collisions
    .slice(0, LISTED)
    .map((c) => `  ${c.kind} ${JSON.stringify(c.value)}: ${c.members}`);
  if (collisions.length > LISTED) lines.push(`  … and ${collisions.length - LISTED} more`);
  return [
    `Migration ${CaseInsensitiveUserNames1795360000000.name} stopped, nothing was changed: ` +
      `usernames and emails are now unique regardless of case, and ${collisions.length} ` +
      'value(s) are held by several rows that differ only by case:',
    ...lines,
    'Resolve each one by renaming or deleting all but one of the rows (for example ' +
      `UPDATE users SET username = 'alice2' WHERE id = 2; an email also lives in user_emails), ` +
      'then run the migrations again.',
  ].join('\n');
}
