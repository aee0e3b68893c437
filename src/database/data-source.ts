import type { DataSourceOptions } from 'typeorm';
import type { EmbeddedConnection } from './embedded-postgres';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';
import { TypeOrmLogger } from './typeorm-logger';

export type DatabaseTarget = { url: string } | { embedded: EmbeddedConnection };

/** Pool limits for a PostgreSQL server (docs/adr/0004-database-outage-and-shutdown.md). */
export interface PoolSettings {
  max: number;
  connectTimeoutMs: number;
  queryTimeoutMs: number;
}

export const DEFAULT_POOL: PoolSettings = {
  max: 10,
  connectTimeoutMs: 5000,
  queryTimeoutMs: 60000,
};

/**
 * node-postgres options so that nothing waits forever on a server that went away: a bounded
 * connect (which also bounds the wait for a free pooled client), TCP keep-alive to notice a
 * dead peer, statement_timeout so the server cancels a runaway statement (57014, connection
 * kept), and query_timeout a second later for a network that no longer answers at all.
 */
function poolOptions(pool: PoolSettings): Record<string, unknown> {
  return {
    max: pool.max,
    connectionTimeoutMillis: pool.connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    statement_timeout: pool.queryTimeoutMs,
    query_timeout: pool.queryTimeoutMs + 1000,
  };
}

/**
 * TypeORM options for PostgreSQL or for the embedded PGlite socket.
 * `synchronize` is never on: the schema changes only through migrations.
 */
export function dataSourceOptions(
  target: DatabaseTarget,
  migrationsRun = false,
  pool: PoolSettings = DEFAULT_POOL,
): DataSourceOptions {
  const connection =
    'url' in target
      ? { url: target.url, extra: poolOptions(pool) }
      : {
          host: target.embedded.socketDir,
          port: target.embedded.port,
          username: 'postgres',
          database: 'postgres',
          // PGlite is one session: a second pooled connection would interleave transactions.
          // It lives in this process, so it cannot become unreachable: no connect timeout,
          // which would also turn a queue for its single connection into failures under load.
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
