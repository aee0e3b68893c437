import type { PoolClient, QueryResultRow } from 'pg';
import type { DataSource } from 'typeorm';

/**
 * Runs one statement as a named prepared statement on a connection of TypeORM's pool, taken and
 * given back through the public QueryRunner API (the same pool, so the embedded PGlite setup
 * keeps its single connection). The server parses and plans the statement once per connection
 * instead of on every token request (docs/performance/oauth.md). Each name must always be used
 * with the same text.
 */
export async function preparedQuery<T extends QueryResultRow>(
  dataSource: DataSource,
  name: string,
  text: string,
  values: unknown[],
): Promise<T[]> {
  const runner = dataSource.createQueryRunner('master');
  try {
    // connect() resolves to the node-postgres client the runner holds (TypeORM's documented type
    // is `any`); its query() accepts a named query config.
    const client = (await runner.connect()) as PoolClient;
    const result = await client.query<T>({ name, text, values });
    return result.rows;
  } catch (error) {
    // As TypeORM's own queries do: logged (without the values) and counted.
    dataSource.logger.logQueryError(error as Error, text, undefined, runner);
    throw error;
  } finally {
    await runner.release();
  }
}
