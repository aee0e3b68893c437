import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { DatabaseTarget } from '../../src/database/data-source';
import { EmbeddedPostgres } from '../../src/database/embedded-postgres';

export interface ScratchDatabase {
  target: DatabaseTarget;
  drop: () => Promise<void>;
}

/**
 * An empty database of its own, for tests that build a schema step by step (migrations): a new
 * database on the DATABASE_URL server when one is set, else a throw-away in-memory PGlite.
 */
export async function scratchDatabase(): Promise<ScratchDatabase> {
  if (!process.env.DATABASE_URL) {
    const embedded = new EmbeddedPostgres('memory://');
    return { target: { embedded: await embedded.start() }, drop: () => embedded.stop() };
  }
  const name = `scratch_${randomBytes(6).toString('hex')}`;
  const server = new URL(process.env.DATABASE_URL);
  server.pathname = '/postgres';
  const admin = async (sql: string) => {
    const client = new Client({ connectionString: server.toString() });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    target: { url: url.toString() },
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
