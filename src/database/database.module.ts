import {
  Inject,
  Injectable,
  Logger,
  Module,
  OnApplicationShutdown,
  OnModuleInit,
} from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { InjectDataSource, TypeOrmModule } from '@nestjs/typeorm';
import type { Pool, PoolClient } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { Metrics } from '../common/metrics/metrics';
import { AppConfig } from '../config/app-config';
import { DatabaseTarget, dataSourceOptions } from './data-source';
import { EmbeddedPostgres } from './embedded-postgres';
import { TypeOrmLogger } from './typeorm-logger';

/** Starts embedded PGlite when no DATABASE_URL is configured, and stops it last. */
@Injectable()
export class DatabaseTargetProvider implements OnApplicationShutdown {
  private readonly logger = new Logger('Database');
  private embedded?: EmbeddedPostgres;

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly moduleRef: ModuleRef,
  ) {}

  async resolve(): Promise<DatabaseTarget> {
    if (this.config.databaseUrl) {
      this.logger.log('Database: PostgreSQL from DATABASE_URL');
      return { url: this.config.databaseUrl };
    }
    this.embedded = new EmbeddedPostgres(this.config.embeddedDataDir);
    const embedded = await this.embedded.start();
    this.logger.log(
      `Database: embedded PGlite in ${this.embedded.directory ?? 'memory'} (no DATABASE_URL set)`,
    );
    return { embedded };
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.embedded) return;
    // TypeORM's own shutdown hook may run after this one: close its connection first.
    const dataSource = this.moduleRef.get(DataSource, { strict: false });
    if (dataSource.isInitialized) await dataSource.destroy();
    await this.embedded.stop();
    this.embedded = undefined;
  }
}

/**
 * Every new pool connection first drops the named prepared statements its session may already
 * hold: node-postgres tracks them per client from empty (src/common/sql/prepared-query.ts). A
 * PostgreSQL backend is new with every connection, but PGlite is ONE session behind its socket,
 * so after a connection is lost and made again the statements prepared on the old one are still
 * there, and preparing one again failed with "prepared statement already exists" (a 500 instead
 * of recovering, database-outage.e2e-spec.ts on the embedded database).
 */
@Injectable()
export class FreshPreparedStatements implements OnModuleInit {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  onModuleInit(): void {
    const pool = (this.dataSource.driver as PostgresDriver).master as Pool;
    pool.on('connect', (client: PoolClient) => {
      // Queued ahead of the client's first query; a failure shows on that query too.
      client.query('DEALLOCATE ALL').catch(() => undefined);
    });
  }
}

/** The pool's connections, read by the metrics at each scrape (docs/operations.md). */
@Injectable()
export class PoolMetrics implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(Metrics) private readonly metrics: Metrics,
  ) {}

  onModuleInit(): void {
    const pool = (this.dataSource.driver as PostgresDriver).master as Pool;
    this.metrics.onPoolScrape(() => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: pool.options.max,
    }));
  }
}

@Module({
  providers: [FreshPreparedStatements, PoolMetrics],
  imports: [
    TypeOrmModule.forRootAsync({
      extraProviders: [DatabaseTargetProvider],
      inject: [AppConfig, DatabaseTargetProvider, Metrics],
      useFactory: async (config: AppConfig, target: DatabaseTargetProvider, metrics: Metrics) => {
        const resolved = await target.resolve();
        return {
          ...dataSourceOptions(resolved, config.migrationsRun, {
            max: config.databasePoolMax,
            connectTimeoutMs: config.databaseConnectTimeoutMs,
            queryTimeoutMs: config.databaseQueryTimeoutMs,
          }),
          // A remote server may still be starting; the embedded one is up or failed for good.
          retryAttempts: 'url' in resolved ? 5 : 0,
          retryDelay: 1000,
          logger: new TypeOrmLogger((error) => metrics.statementError(error)),
        };
      },
    }),
  ],
})
export class DatabaseModule {}
