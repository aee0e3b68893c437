import type { DataSourceOptions } from 'typeorm';
import type { EmbeddedConnection } from './embedded-postgres';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';
import { TypeOrmLogger } from './typeorm-logger';

export type DatabaseTarget = { url: string } | { embedded: EmbeddedConnection };

/**
 * TypeORM options for PostgreSQL or for the embedded PGlite socket.
 * `synchronize` is never on: the schema changes only through migrations.
 */
export function dataSourceOptions(
  target: DatabaseTarget,
  migrationsRun = false,
): DataSourceOptions {
  const connection =
    'url' in target
      ? { url: target.url }
      : {
          host: target.embedded.socketDir,
          port: target.embedded.port,
          username: 'postgres',
          database: 'postgres',
          // PGlite is one session: a second pooled connection would interleave transactions.
          extra: { max: 1 },
        };
  return {
    type: 'postgres',
    ...connection,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsRun,
    migrationsTableName: 'migrations',
    synchronize: false,
    logging: ['error', 'warn', 'migration'],
    logger: new TypeOrmLogger(),
    maxQueryExecutionTime: 1000,
  };
}
