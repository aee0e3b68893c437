import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source';
import { migratedScratchDatabase } from './scratch-database';

export interface MigratedDatabase {
  dataSource: DataSource;
  drop: () => Promise<void>;
}

/**
 * A database of its own with every migration applied, for unit tests of a module's SQL without
 * booting the app: a copy of the run's migrated template (test/support/scratch-database.ts); the
 * data source still runs any migration the copy lacks.
 */
export async function migratedDatabase(): Promise<MigratedDatabase> {
  const scratch = await migratedScratchDatabase();
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
