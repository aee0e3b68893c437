import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source';
import { scratchDatabase } from './scratch-database';

export interface MigratedDatabase {
  dataSource: DataSource;
  drop: () => Promise<void>;
}

/**
 * A database of its own with every migration applied, for unit tests of a module's SQL without
 * booting the app: a scratch database on the DATABASE_URL server, else an in-memory PGlite.
 */
export async function migratedDatabase(): Promise<MigratedDatabase> {
  const scratch = await scratchDatabase();
  const dataSource = new DataSource(dataSourceOptions(scratch.target, true));
  await dataSource.initialize();
  return {
    dataSource,
    drop: async () => {
      await dataSource.destroy();
      await scratch.drop();
    },
  };
}
