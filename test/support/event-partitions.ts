import type { DataSource } from 'typeorm';

/**
 * Drops every monthly partition of events (after a truncate they hold nothing), so a test of the
 * partition job starts from the default partition alone whatever ran before it on the database.
 */
export async function dropMonthlyPartitions(dataSource: DataSource): Promise<void> {
  const rows = await dataSource.query<{ name: string }[]>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'events'::regclass AND c.relname <> 'events_default'`,
  );
  if (rows.length > 0) await dataSource.query(`DROP TABLE ${rows.map((r) => r.name).join(', ')}`);
}

/** The table each event is stored in, in the order of `ids` ('missing' for an unknown id). */
export async function partitionsOf(dataSource: DataSource, ids: number[]): Promise<string[]> {
  const rows = await dataSource.query<{ id: number; part: string }[]>(
    'SELECT id::int AS id, tableoid::regclass::text AS part FROM events WHERE id = ANY($1)',
    [ids],
  );
  const part = new Map(rows.map((row) => [row.id, row.part]));
  return ids.map((id) => part.get(id) ?? 'missing');
}
