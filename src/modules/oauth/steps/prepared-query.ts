import type { Pool, QueryResultRow } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * Runs one statement as a named prepared statement on the `pg` pool behind TypeORM (the same pool,
 * so the embedded single-connection setup is respected). The server parses and plans the statement
 * once per connection instead of on every token request (docs/performance-oauth.md). Each name
 * must always be used with the same text.
 */
export async function preparedQuery<T extends QueryResultRow>(
  dataSource: DataSource,
  name: string,
  text: string,
  values: unknown[],
): Promise<T[]> {
  const pool = (dataSource.driver as PostgresDriver).master as Pool;
  const result = await pool.query<T>({ name, text, values });
  return result.rows;
}
