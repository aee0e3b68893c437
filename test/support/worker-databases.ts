import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source';

/**
 * With DATABASE_URL (CI) the run's databases live on that server, named after DATABASE_URL's
 * database D: `D_template` with every migration applied (migrated scratch databases are made
 * from it with CREATE DATABASE … TEMPLATE), and one database per jest worker, since the files
 * of one worker run one at a time but the workers run side by side and every file empties the
 * tables before each test: worker 1 uses D itself, worker n > 1 `D_wn`, a copy of the template.
 * Set by test/support/global-setup.ts; test/support/worker-env.ts points each file at its worker's.
 */
export const WORKER_DATABASES_ENV = 'IDSVC_TEST_WORKER_DATABASES';
export const DATABASE_TEMPLATE_ENV = 'IDSVC_TEST_DATABASE_TEMPLATE';

/** DATABASE_URL with another database name (same server, user, options). */
export function withDatabase(url: string, name: string): string {
  const other = new URL(url);
  other.pathname = `/${encodeURIComponent(name)}`;
  return other.toString();
}

export function databaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.slice(1)) || 'postgres';
}

export const quoteIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** Runs statements one by one on the server's `postgres` database. */
export async function onServer(url: string, ...statements: string[]): Promise<void> {
  const client = new Client({ connectionString: withDatabase(url, 'postgres') });
  await client.connect();
  try {
    for (const sql of statements) await client.query(sql);
  } finally {
    await client.end();
  }
}

export const templateName = (url: string): string => `${databaseName(url)}_template`;
export const workerDatabaseName = (url: string, worker: number): string =>
  worker <= 1 ? databaseName(url) : `${databaseName(url)}_w${worker}`;

/** Creates the migrated template and the databases of workers 2…workers (dropped first). */
export async function createWorkerDatabases(url: string, workers: number): Promise<void> {
  const template = templateName(url);
  await onServer(
    url,
    `DROP DATABASE IF EXISTS ${quoteIdent(template)} WITH (FORCE)`,
    `CREATE DATABASE ${quoteIdent(template)}`,
  );
  const dataSource = new DataSource({
    ...dataSourceOptions({ url: withDatabase(url, template) }, true),
    logging: false,
  });
  await dataSource.initialize();
  await dataSource.destroy();
  for (let worker = 2; worker <= workers; worker++) {
    const name = quoteIdent(workerDatabaseName(url, worker));
    await onServer(
      url,
      `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`,
      `CREATE DATABASE ${name} TEMPLATE ${quoteIdent(template)}`,
    );
  }
}

export async function dropWorkerDatabases(url: string, workers: number): Promise<void> {
  const names = [templateName(url)];
  for (let worker = 2; worker <= workers; worker++) names.push(workerDatabaseName(url, worker));
  await onServer(
    url,
    ...names.map((name) => `DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`),
  );
}
