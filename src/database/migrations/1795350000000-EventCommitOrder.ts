import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Event ids a forward poll can trust, and timestamps a cursor can repeat (docs/events.md).
 *
 * A BEFORE INSERT trigger, one definition for every writer (the service, the OAuth steps' own
 * SQL, the seed), first takes this application's event-writer lock in shared mode — held until
 * the writer's transaction commits or aborts — and only then draws the id from the sequence.
 * GET /events?after takes the same lock exclusively for an instant: every id drawn before that
 * instant is then final, every id drawn after it is larger than the sequence value read then.
 * The column default is dropped so that an event draws one id, not two.
 *
 * The trigger also cuts `created_at` to milliseconds, the precision the API shows, so that a
 * `before`/`beforeId` cursor built from a shown `createdAt` designates exactly the stored value.
 * The lock key 1702260340 ("evnt") is EVENT_WRITERS_LOCK in src/modules/events/commit-horizon.ts.
 * `(application_id, id)` serves the forward poll's `id > after ORDER BY id`.
 */
export class EventCommitOrder1795350000000 implements MigrationInterface {
  name = 'EventCommitOrder1795350000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE "events" SET "created_at" = date_trunc('milliseconds', "created_at")
       WHERE "created_at" <> date_trunc('milliseconds', "created_at")`,
    );
    await queryRunner.query(`ALTER TABLE "events" ALTER COLUMN "id" DROP DEFAULT`);
    await queryRunner.query(
      `CREATE FUNCTION "events_assign_id"() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         PERFORM pg_advisory_xact_lock_shared(1702260340, NEW."application_id");
         NEW."id" := nextval('"public"."events_id_seq"'::regclass);
         NEW."created_at" := date_trunc('milliseconds', NEW."created_at");
         RETURN NEW;
       END $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "trg_events_assign_id" BEFORE INSERT ON "events"
       FOR EACH ROW EXECUTE FUNCTION "events_assign_id"()`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_events_application_id" ON "events" ("application_id", "id")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."idx_events_application_id"`);
    await queryRunner.query(`DROP TRIGGER "trg_events_assign_id" ON "events"`);
    await queryRunner.query(`DROP FUNCTION "events_assign_id"()`);
    await queryRunner.query(
      `ALTER TABLE "events" ALTER COLUMN "id" SET DEFAULT nextval('"public"."events_id_seq"'::regclass)`,
    );
  }
}
