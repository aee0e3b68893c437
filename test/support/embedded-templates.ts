import { randomBytes } from 'node:crypto';
import {
  accessSync,
  constants,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statfsSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source';
import { EmbeddedPostgres } from '../../src/database/embedded-postgres';

/**
 * The run's directory of embedded (PGlite) data directories, set by test/support/global-setup.ts
 * for every test file of the run. Creating a PGlite cluster (its initdb, in WebAssembly) is most
 * of the cost of a fresh embedded database, so it happens once per run: `empty/` is a new
 * cluster, `migrated/` the same with every migration applied. A test's database is a copy of
 * one of them, opened by the service's own EmbeddedPostgres as an on-disk data directory.
 */
export const EMBEDDED_TEMPLATES_ENV = 'IDSVC_TEST_EMBEDDED_TEMPLATES';

export type TemplateKind = 'empty' | 'migrated';

const RAM_DISK = '/dev/shm';
const RAM_DISK_ROOM = 2 * 1024 ** 3;

/** Builds `empty/` and `migrated/` under `dir` (the service's data-directory layout). */
export async function buildEmbeddedTemplates(dir: string): Promise<void> {
  const empty = join(dir, 'empty');
  const initialised = new EmbeddedPostgres(empty);
  await initialised.start();
  await initialised.stop();
  const migrated = join(dir, 'migrated');
  copyDataDir(empty, migrated);
  const embedded = new EmbeddedPostgres(migrated);
  try {
    const target = { embedded: await embedded.start() };
    const dataSource = new DataSource({ ...dataSourceOptions(target, true), logging: false });
    await dataSource.initialize();
    await dataSource.destroy();
  } finally {
    await embedded.stop();
  }
}

export interface EmbeddedCopy {
  /** An EMBEDDED_DATA_DIR of its own, for one EmbeddedPostgres (one app) at a time. */
  dataDir: string;
  remove: () => void;
}

/**
 * A throw-away copy of the run's `kind` template, or undefined when the run has none (a test
 * started without the global setup): the caller then starts a fresh in-memory database.
 */
export function embeddedCopy(kind: TemplateKind): EmbeddedCopy | undefined {
  const root = process.env[EMBEDDED_TEMPLATES_ENV];
  if (!root) return undefined;
  const copies = join(root, 'copies');
  mkdirSync(copies, { recursive: true });
  const dataDir = join(copies, `${kind}-${randomBytes(6).toString('hex')}`);
  if (!copyTemplateInto(kind, dataDir)) return undefined;
  return { dataDir, remove: () => rmSync(dataDir, { recursive: true, force: true }) };
}

/**
 * Fills `dataDir` (new or empty) with a copy of the run's `kind` template, so that an
 * EmbeddedPostgres started there opens a cluster instead of creating one; false when the run
 * has no template.
 */
export function copyTemplateInto(kind: TemplateKind, dataDir: string): boolean {
  const root = process.env[EMBEDDED_TEMPLATES_ENV];
  if (!root || !existsSync(join(root, kind))) return false;
  copyDataDir(join(root, kind), dataDir);
  return true;
}

/**
 * A new directory for the run's templates and copies (removed by the global teardown), on the
 * RAM-backed /dev/shm when the machine has one: a copy is ~1,000 files and 40 MB, made and
 * removed for every app, and the database writes to it, which a busy disk makes seconds each.
 * Directories of earlier runs whose process is gone (killed before its teardown) are removed.
 */
export function makeTemplatesRoot(): string {
  const parent = ramDisk() ?? tmpdir();
  for (const name of readdirSync(parent)) {
    const pid = /^idsvc-test-(\d+)-/.exec(name)?.[1];
    if (pid && !isAlive(Number(pid))) rmSync(join(parent, name), { recursive: true, force: true });
  }
  return mkdtempSync(join(parent, `idsvc-test-${process.pid}-`));
}

/** /dev/shm when writable with room for a run (a container's default 64 MB is not). */
function ramDisk(): string | undefined {
  try {
    accessSync(RAM_DISK, constants.W_OK);
    const { bavail, bsize } = statfsSync(RAM_DISK);
    return statSync(RAM_DISK).isDirectory() && bavail * bsize >= RAM_DISK_ROOM
      ? RAM_DISK
      : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Copies a stopped data directory: its lock and sockets belong to the process that ran it. */
function copyDataDir(from: string, to: string): void {
  cpSync(from, to, {
    recursive: true,
    filter: (source) => !/(^|\/)(LOCK|\.s\.PGSQL\.\d+|admin\.sock)$/.test(source),
  });
}
