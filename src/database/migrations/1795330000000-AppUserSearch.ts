import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * GET /users keyword search scoped by application (docs/performance/users.md).
 *
 * `app_users.search` is `lower(username) || E'\n' || lower(email)` of the related user, kept in
 * step by triggers: filled on every relation insert, rewritten when a user's username or email
 * changes. Neither a username nor an email can contain a newline, so a keyword without one
 * matches `search` exactly when it matches the username or the email. The GIN index leads with
 * `application_id` (btree_gin), so the heap rows a keyword scan rechecks are the application's
 * own; the global trigram indexes on `users` are no longer used and are dropped.
 */
export class AppUserSearch1795330000000 implements MigrationInterface {
  name = 'AppUserSearch1795330000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS btree_gin`);
    await queryRunner.query(`ALTER TABLE "app_users" ADD "search" text`);
    await queryRunner.query(
      `UPDATE "app_users" au SET "search" = lower(u."username") || E'\\n' || lower(u."email")
       FROM "users" u WHERE u."id" = au."user_id"`,
    );
    await queryRunner.query(`ALTER TABLE "app_users" ALTER COLUMN "search" SET NOT NULL`);
    // A caller's value is kept only when the user row is not visible yet, i.e. inserted by the
    // same statement (the set-based seed, which computes the same expression).
    await queryRunner.query(
      `CREATE FUNCTION "app_users_fill_search"() RETURNS trigger LANGUAGE plpgsql AS $$
       DECLARE s text;
       BEGIN
         SELECT lower(u."username") || E'\\n' || lower(u."email") INTO s
           FROM "users" u WHERE u."id" = NEW."user_id";
         IF FOUND THEN NEW."search" := s; END IF;
         RETURN NEW;
       END $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "trg_app_users_fill_search" BEFORE INSERT OR UPDATE OF "user_id", "search"
       ON "app_users" FOR EACH ROW EXECUTE FUNCTION "app_users_fill_search"()`,
    );
    await queryRunner.query(
      `CREATE FUNCTION "users_sync_app_users_search"() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         UPDATE "app_users" SET "search" = lower(NEW."username") || E'\\n' || lower(NEW."email")
           WHERE "user_id" = NEW."id";
         RETURN NULL;
       END $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "trg_users_sync_app_users_search" AFTER UPDATE OF "username", "email"
       ON "users" FOR EACH ROW
       WHEN (OLD."username" IS DISTINCT FROM NEW."username" OR OLD."email" IS DISTINCT FROM NEW."email")
       EXECUTE FUNCTION "users_sync_app_users_search"()`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_app_users_app_search_trgm" ON "app_users" USING gin ("application_id", "search" gin_trgm_ops)`,
    );
    await queryRunner.query(`DROP INDEX "public"."idx_users_username_trgm"`);
    await queryRunner.query(`DROP INDEX "public"."idx_users_email_trgm"`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "idx_users_email_trgm" ON "users" USING gin (lower("email") gin_trgm_ops)`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_users_username_trgm" ON "users" USING gin (lower("username") gin_trgm_ops)`,
    );
    await queryRunner.query(`DROP INDEX "public"."idx_app_users_app_search_trgm"`);
    await queryRunner.query(`DROP TRIGGER "trg_users_sync_app_users_search" ON "users"`);
    await queryRunner.query(`DROP FUNCTION "users_sync_app_users_search"()`);
    await queryRunner.query(`DROP TRIGGER "trg_app_users_fill_search" ON "app_users"`);
    await queryRunner.query(`DROP FUNCTION "app_users_fill_search"()`);
    await queryRunner.query(`ALTER TABLE "app_users" DROP COLUMN "search"`);
  }
}
