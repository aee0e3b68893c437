import {
  chmodSync,
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded data directory ${dataDir} is in use by process ${pid}. ` +
        'Stop that process, or point EMBEDDED_DATA_DIR at another directory.',
    );
    this.name = 'DataDirLockedError';
  }
}

/**
 * The data directory holds the database files and the unix sockets (admin, PGlite) that act with
 * the operator's rights, so only its owner may enter it, and only the owner may connect to the
 * sockets, whatever the umask (which bind() and mkdir() apply).
 */
const OWNER_ONLY = 0o700;
export const OWNER_ONLY_SOCKET = 0o600;

/**
 * Sets dataDir to 0700. A directory that other accounts could reach (made by an earlier version
 * under a permissive umask, or by hand) is narrowed too; the returned note says so, for the log.
 */
export function restrictToOwner(dataDir: string): string | undefined {
  const before = statSync(dataDir).mode & 0o777;
  if (before === OWNER_ONLY) return undefined;
  chmodSync(dataDir, OWNER_ONLY);
  return before & 0o077
    ? `The embedded data directory ${dataDir} was open to other accounts ` +
        `(mode ${before.toString(8).padStart(4, '0')}); restricted it to its owner (0700).`
    : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Returns the pid holding the lock on dataDir, or undefined when nobody (alive) holds it. */
export function lockHolder(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dataDir, 'LOCK'), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * PGlite has no lock of its own: two processes on one directory corrupt it.
 * The lock is a file created exclusively, holding the owner's pid; a lock whose
 * owner is dead is stale and taken over.
 */
export function acquireDataDirLock(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: OWNER_ONLY });
  const path = join(dataDir, 'LOCK');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A live holder, this process included, means a second PGlite on the same files.
      const holder = lockHolder(dataDir);
      if (holder !== undefined) throw new DataDirLockedError(dataDir, holder);
      rmSync(path, { force: true });
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}
