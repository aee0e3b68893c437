import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes for the application API's user list, stats and event feed (docs/performance/users.md).
 * Trigram and INCLUDE indexes are written by hand; the entities declare them with
 * `synchronize: false` so the drift check ignores them.
 */
export class UserQueryIndexes1795310000000 implements MigrationInterface {
  name = 'UserQueryIndexes1795310000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    // GET /users keyword: case-insensitive substring of username or email.
    await queryRunner.query(
      `CREATE INDEX "idx_users_username_trgm" ON "users" USING gin (lower("username") gin_trgm_ops)`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_users_email_trgm" ON "users" USING gin (lower("email") gin_trgm_ops)`,
    );
    // GET /users group / enabled filters, in user id order; INCLUDE lets both filters together
    // use an index-only scan.
    await queryRunner.query(
      `CREATE INDEX "idx_app_users_app_group_user" ON "app_users" ("application_id", "group", "user_id") INCLUDE ("enabled")`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_app_users_app_enabled_user" ON "app_users" ("application_id", "enabled", "user_id") INCLUDE ("group")`,
    );
    // GET /events?eventType= and the daily counts of GET /stats.
    await queryRunner.query(
      `CREATE INDEX "idx_events_app_type_created_id" ON "events" ("application_id", "event_type", "created_at", "id")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."idx_events_app_type_created_id"`);
    await queryRunner.query(`DROP INDEX "public"."idx_app_users_app_enabled_user"`);
    await queryRunner.query(`DROP INDEX "public"."idx_app_users_app_group_user"`);
    await queryRunner.query(`DROP INDEX "public"."idx_users_email_trgm"`);
    await queryRunner.query(`DROP INDEX "public"."idx_users_username_trgm"`);
  }
}
