// TypeORM CLI data source (migration:generate, migration:revert). Needs DATABASE_URL.
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './src/database/data-source';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('Set DATABASE_URL to run the TypeORM CLI against PostgreSQL');

export default new DataSource(dataSourceOptions({ url }));
