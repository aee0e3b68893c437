import { Logger } from '@nestjs/common';
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyTemplateInto } from '../../test/support/embedded-templates';
import { EmbeddedPostgres } from './embedded-postgres';

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe('EmbeddedPostgres file modes', () => {
  let dir: string;
  let previousUmask: number;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'embedded-'));
    // The run's empty cluster (test/support/global-setup.ts): start() opens it instead of creating
    // one, the part of a first start that a loaded machine stretched past a minute.
    copyTemplateInto('empty', dir);
    // The most permissive umask: every mode checked below is set by the code, not inherited.
    previousUmask = process.umask(0);
  });
  afterEach(() => {
    process.umask(previousUmask);
    jest.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the data directory 0700 and its socket 0600, narrowing a directory left open', async () => {
    chmodSync(dir, 0o777);
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const embedded = new EmbeddedPostgres(dir);
    const { socketDir, port } = await embedded.start();
    try {
      expect(socketDir).toBe(dir);
      expect([modeOf(dir), modeOf(join(dir, `.s.PGSQL.${port}`))]).toEqual(['700', '600']);
      expect(warn).toHaveBeenCalledWith(
        `The embedded data directory ${dir} was open to other accounts (mode 0777); ` +
          'restricted it to its owner (0700).',
      );
    } finally {
      await embedded.stop();
    }
  });
});
