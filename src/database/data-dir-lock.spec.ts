import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireDataDirLock, DataDirLockedError, lockHolder } from './data-dir-lock';

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
});
