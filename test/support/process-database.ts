import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions, type DatabaseTarget } from '../../src/database/data-source';
import { EmbeddedPostgres } from '../../src/database/embedded-postgres';
import { embeddedCopy } from './embedded-templates';
import { migratedScratchDatabase } from './scratch-database';

/** A migrated database of its own for the CLI and service processes a test starts. */
export interface ProcessDatabase {
  /** What a child process needs to open it (DATABASE_URL, or EMBEDDED_DATA_DIR). */
  env: Record<string, string>;
  /** Runs `work` on it from the test; for the embedded one, only while no process has it open. */
  withDataSource: <T>(work: (dataSource: DataSource) => Promise<T>) => Promise<T>;
  drop: () => Promise<void>;
}

/**
 * A scratch database on the DATABASE_URL server, else the embedded default in a data directory
 * of its own (a copy of the run's migrated template when there is one).
 */
export async function processDatabase(): Promise<ProcessDatabase> {
  if (process.env.DATABASE_URL) {
    const scratch = await migratedScratchDatabase();
    const { url } = scratch.target as { url: string };
    return {
      env: { DATABASE_URL: url },
      withDataSource: (work) => withDataSource(scratch.target, work),
      drop: scratch.drop,
    };
  }
  const dataDir =
    embeddedCopy('migrated')?.dataDir ?? mkdtempSync(join(tmpdir(), 'idsvc-process-db-'));
  return {
    env: { EMBEDDED_DATA_DIR: dataDir },
    withDataSource: async (work) => {
      const embedded = new EmbeddedPostgres(dataDir);
      try {
        return await withDataSource({ embedded: await embedded.start() }, work);
      } finally {
        await embedded.stop();
      }
    },
    drop: () => Promise.resolve(rmSync(dataDir, { recursive: true, force: true })),
  };
}

async function withDataSource<T>(
  target: DatabaseTarget,
  work: (dataSource: DataSource) => Promise<T>,
): Promise<T> {
  const dataSource = await new DataSource(dataSourceOptions(target)).initialize();
  try {
    return await work(dataSource);
  } finally {
    await dataSource.destroy();
  }
}
