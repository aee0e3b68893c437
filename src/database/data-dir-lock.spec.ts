import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  acquireDataDirLock,
  DataDirLockedError,
  lockHolder,
  restrictToOwner,
} from './data-dir-lock';

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe('acquireDataDirLock', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lock-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the owner pid and removes the lock on release', () => {
    const release = acquireDataDirLock(dir);
    expect(readFileSync(join(dir, 'LOCK'), 'utf8')).toBe(String(process.pid));
    expect(lockHolder(dir)).toBe(process.pid);
    release();
    expect(existsSync(join(dir, 'LOCK'))).toBe(false);
  });

  it('refuses a directory locked by another live process, naming it', async () => {
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      writeFileSync(join(dir, 'LOCK'), String(other.pid));
      expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
      expect(() => acquireDataDirLock(dir)).toThrow(`in use by process ${other.pid}`);
    } finally {
      other.kill();
      await new Promise((done) => other.once('exit', done));
    }
  });

  it('refuses a second lock in the same process', () => {
    const release = acquireDataDirLock(dir);
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    release();
  });

  it('takes over a stale lock whose owner is dead', () => {
    writeFileSync(join(dir, 'LOCK'), '2147483646');
    const release = acquireDataDirLock(dir);
    expect(lockHolder(dir)).toBe(process.pid);
    release();
  });

  it('creates the directory 0700 and the lock 0600 even under umask 0', () => {
    const previous = process.umask(0);
    try {
      const data = join(dir, 'new', 'data');
      const release = acquireDataDirLock(data);
      expect([modeOf(data), modeOf(join(data, 'LOCK'))]).toEqual(['700', '600']);
      release();
    } finally {
      process.umask(previous);
    }
  });

  it('narrows a directory open to other accounts to 0700, and says so', () => {
    chmodSync(dir, 0o755);
    expect(restrictToOwner(dir)).toBe(
      `The embedded data directory ${dir} was open to other accounts (mode 0755); ` +
        'restricted it to its owner (0700).',
    );
    expect(modeOf(dir)).toBe('700');
    expect(restrictToOwner(dir)).toBeUndefined();
  });
});
