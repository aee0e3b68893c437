import { join } from 'node:path';
import { EmbeddedPostgres } from '../../src/database/embedded-postgres';
import { embeddedCopy, type EmbeddedCopy } from './embedded-templates';
import { TcpProxy } from './tcp-proxy';

export interface ProxiedDatabase {
  proxy: TcpProxy;
  /** Environment for an app that reaches the database through the proxy only. */
  env: Record<string, string>;
  stop: () => Promise<void>;
}

/**
 * A real PostgreSQL server behind a TcpProxy the test can cut: DATABASE_URL's server when set
 * (CI), otherwise a throw-away embedded PGlite (a copy of the run's migrated data directory,
 * test/support/embedded-templates.ts) served on its unix socket. The app's DATABASE_URL is the
 * proxy's address, same database name.
 */
export async function proxiedDatabase(): Promise<ProxiedDatabase> {
  let embedded: EmbeddedPostgres | undefined;
  let copy: EmbeddedCopy | undefined;
  let proxy: TcpProxy;
  let url: URL;
  const env: Record<string, string> = {};
  if (process.env.DATABASE_URL) {
    url = new URL(process.env.DATABASE_URL);
    proxy = new TcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
  } else {
    copy = embeddedCopy('migrated');
    embedded = new EmbeddedPostgres(copy?.dataDir ?? 'memory://');
    const socket = await embedded.start();
    proxy = new TcpProxy({ path: join(socket.socketDir, `.s.PGSQL.${socket.port}`) });
    url = new URL('postgres://postgres@localhost/postgres');
    // PGlite is a single session (src/database/embedded-postgres.ts).
    env.DATABASE_POOL_MAX = '1';
  }
  await proxy.start();
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  env.DATABASE_URL = url.toString();
  return {
    proxy,
    env,
    stop: async () => {
      await proxy.stop();
      await embedded?.stop();
      copy?.remove();
    },
  };
}
