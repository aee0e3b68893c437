import { Client } from 'pg';

/**
 * The benchmark's own database: `override` when given, else `name` on the server of
 * DATABASE_URL (default: the local PostgreSQL). Benchmarks never touch the database under test.
 */
export function benchDatabaseUrl(override: string | undefined, name: string): string {
  if (override) return override;
  const base = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  base.pathname = `/${name}`;
  return base.toString();
}

/** Drops and re-creates the benchmark database, so every run starts from the same state. */
export async function recreateDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`refusing odd database name ${name}`);
  target.pathname = '/postgres';
  const admin = new Client({ connectionString: target.toString() });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
}

/** Whether the database of `url` exists on its server. */
export async function databaseExists(url: string): Promise<boolean> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  target.pathname = '/postgres';
  const admin = new Client({ connectionString: target.toString() });
  await admin.connect();
  const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  await admin.end();
  return rowCount === 1;
}
