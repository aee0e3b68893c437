import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `events` becomes a table partitioned by RANGE on `created_at`, one partition per UTC month
 * (`events_pYYYY_MM`) and a DEFAULT partition (`events_default`) that takes a row whose month has
 * no partition yet, so an insert never fails for lack of one (docs/events.md, "Partitions").
 * The maintenance job creates the months ahead and drops those past EVENTS_RETENTION_DAYS
 * (src/modules/maintenance/event-partitions.service.ts).
 *
 * The primary key of a partitioned table must contain the partition key: it is (id, created_at).
 * Ids stay unique by construction: the trigger draws every one from events_id_seq (migration
 * EventCommitOrder) and the copied rows keep the ids their old primary key made unique. No
 * foreign key points at events. The sequence, the trigger function and every index name are kept.
 *
 * Existing rows are copied into a partition for each month they fall in; the current month and
 * the next two get theirs too. The months are computed here, not imported, so this migration
 * stays what it was when it landed.
 */
export class PartitionedEvents1795620000000 implements MigrationInterface {
  name = 'PartitionedEvents1795620000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await createEvents(queryRunner, 'PARTITION BY RANGE ("created_at")');
    await queryRunner.query(`CREATE TABLE "events_default" PARTITION OF "events" DEFAULT`);
    const months = (await queryRunner.query(
      `SELECT to_char(m, '"events_p"YYYY"_"MM') AS name,
              to_char(m, 'YYYY-MM-DD"T00:00:00Z"') AS lo,
              to_char(m + interval '1 month', 'YYYY-MM-DD"T00:00:00Z"') AS hi
         FROM (SELECT DISTINCT date_trunc('month', "created_at" AT TIME ZONE 'UTC') AS m
                 FROM "events_unpartitioned"
               UNION
               SELECT date_trunc('month', now() AT TIME ZONE 'UTC') + ahead * interval '1 month'
                 FROM generate_series(0, 2) AS ahead) AS months
        ORDER BY m`,
    )) as { name: string; lo: string; hi: string }[];
    for (const { name, lo, hi } of months) {
      await queryRunner.query(
        `CREATE TABLE "${name}" PARTITION OF "events" FOR VALUES FROM ('${lo}') TO ('${hi}')`,
      );
    }
    await finishRebuild(queryRunner, '"id", "created_at"');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await createEvents(queryRunner, '');
    await finishRebuild(queryRunner, '"id"');
  }
}

const COLUMNS = `"id", "application_id", "event_type", "protocol", "status", "user_id", "scope", "description", "created_at"`;

/** Renames the current table away and creates the new one (no keys yet, so the copy is fast). */
async function createEvents(queryRunner: QueryRunner, partitioning: string): Promise<void> {
  await queryRunner.query(`ALTER TABLE "events" RENAME TO "events_unpartitioned"`);
  await queryRunner.query(`ALTER SEQUENCE "events_id_seq" OWNED BY NONE`);
  await queryRunner.query(
    `CREATE TABLE "events" ("id" bigint NOT NULL, "application_id" integer NOT NULL,
       "event_type" character varying(64) NOT NULL,
       "protocol" character varying(16) NOT NULL DEFAULT 'oauth2',
       "status" character varying(16) NOT NULL DEFAULT 'success', "user_id" bigint,
       "scope" text NOT NULL DEFAULT '', "description" text NOT NULL DEFAULT '',
       "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()) ${partitioning}`,
  );
}

/**
 * Copies the rows (before the trigger exists, so ids are kept), drops the old table, then adds
 * the primary key, the indexes, the foreign key and the id trigger under their old names.
 */
async function finishRebuild(queryRunner: QueryRunner, primaryKey: string): Promise<void> {
  await queryRunner.query(
    `INSERT INTO "events" (${COLUMNS}) SELECT ${COLUMNS} FROM "events_unpartitioned"`,
  );
  await queryRunner.query(`DROP TABLE "events_unpartitioned" CASCADE`);
  await queryRunner.query(`ALTER SEQUENCE "events_id_seq" OWNED BY "events"."id"`);
  await queryRunner.query(
    `ALTER TABLE "events" ADD CONSTRAINT "pk_events" PRIMARY KEY (${primaryKey})`,
  );
  await queryRunner.query(
    `CREATE INDEX "idx_events_application_created_id" ON "events" ("application_id", "created_at", "id")`,
  );
  await queryRunner.query(
    `CREATE INDEX "idx_events_app_type_created_id" ON "events" ("application_id", "event_type", "created_at", "id")`,
  );
  await queryRunner.query(
    `CREATE INDEX "idx_events_application_id" ON "events" ("application_id", "id")`,
  );
  await queryRunner.query(
    `ALTER TABLE "events" ADD CONSTRAINT "fk_events_application" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
  );
  await queryRunner.query(
    `CREATE TRIGGER "trg_events_assign_id" BEFORE INSERT ON "events"
     FOR EACH ROW EXECUTE FUNCTION "events_assign_id"()`,
  );
}
