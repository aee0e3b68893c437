import { Logger } from '@nestjs/common';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { PGlite } from '@electric-sql/pglite' with { 'resolution-mode': 'import' };
import type { PGLiteSocketServer } from '@electric-sql/pglite-socket' with {
  'resolution-mode': 'import',
};
import { acquireDataDirLock, OWNER_ONLY_SOCKET, restrictToOwner } from './data-dir-lock';

/** Port number only names the socket file (`.s.PGSQL.<port>`); nothing listens on TCP. */
const SOCKET_PORT = 5432;

export interface EmbeddedConnection {
  /** Directory holding the unix socket; pg takes it as `host`. */
  socketDir: string;
  port: number;
}

/**
 * Real PostgreSQL (PGlite, compiled to WASM) served to the ordinary `pg` driver over a unix
 * socket. PGlite is a single session: the socket server multiplexes protocol messages, which is
 * only safe with exactly one client connection, so TypeORM must use a pool of 1.
 */
export class EmbeddedPostgres {
  private readonly logger = new Logger('Database');
  private db?: PGlite;
  private server?: PGLiteSocketServer;
  private releaseLock?: () => void;
  private tempDir?: string;

  constructor(readonly dataDir: string) {}

  get inMemory(): boolean {
    return this.dataDir.startsWith('memory://');
  }

  /** Absolute data directory (undefined in memory). */
  get directory(): string | undefined {
    return this.inMemory ? undefined : resolve(this.dataDir);
  }

  async start(): Promise<EmbeddedConnection> {
    let socketDir: string;
    if (this.directory) {
      this.releaseLock = acquireDataDirLock(this.directory);
      const widened = restrictToOwner(this.directory);
      if (widened) this.logger.warn(widened);
      socketDir = this.directory;
    } else {
      this.tempDir = mkdtempSync(join(tmpdir(), 'pglite-'));
      socketDir = this.tempDir;
    }
    try {
      // ESM-only packages: loaded with import() from this CommonJS build.
      const { PGlite } = await import('@electric-sql/pglite');
      const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
      // pg_trgm and btree_gin back the keyword search of GET /users (docs/performance/users.md).
      const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
      const { btree_gin } = await import('@electric-sql/pglite/contrib/btree_gin');
      const db = await PGlite.create(
        this.directory ? join(this.directory, 'pgdata') : 'memory://',
        {
          extensions: { pg_trgm, btree_gin },
        },
      );
      this.db = db;
      const path = join(socketDir, `.s.PGSQL.${SOCKET_PORT}`);
      rmSync(path, { force: true }); // a socket file left by a crash; the lock is ours
      this.server = new PGLiteSocketServer({ db, path, maxConnections: 1 });
      await this.server.start();
      chmodSync(path, OWNER_ONLY_SOCKET); // a connection is the database superuser
      return { socketDir, port: SOCKET_PORT };
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  async stop(): Promise<void> {
    await this.server?.stop();
    this.server = undefined;
    if (this.db && !this.db.closed) await this.db.close();
    this.db = undefined;
    this.releaseLock?.();
    this.releaseLock = undefined;
    if (this.tempDir) rmSync(this.tempDir, { recursive: true, force: true });
    this.tempDir = undefined;
  }
}
