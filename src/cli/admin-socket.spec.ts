import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig } from '../config/app-config';
import type { AdminCommands } from './admin-commands';
import { AdminSocketServer, adminSocketPath } from './admin-socket';

describe('AdminSocketServer', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'admin-socket-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('listens on a socket only its owner can use, even under umask 0', async () => {
    const config = { usesEmbeddedDatabase: true, embeddedDataDir: dir } as AppConfig;
    const server = new AdminSocketServer(config, {} as AdminCommands);
    const previous = process.umask(0);
    try {
      await server.onApplicationBootstrap();
      expect((statSync(adminSocketPath(dir)).mode & 0o777).toString(8)).toBe('600');
    } finally {
      process.umask(previous);
      await server.onApplicationShutdown();
    }
  });
});
