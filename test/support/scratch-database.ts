import { randomBytes } from 'node:crypto';
import type { DatabaseTarget } from '../../src/database/data-source';
import { EmbeddedPostgres } from '../../src/database/embedded-postgres';
import { embeddedCopy, type TemplateKind } from './embedded-templates';
import { DATABASE_TEMPLATE_ENV, onServer, quoteIdent, withDatabase } from './worker-databases';

export interface ScratchDatabase {
  target: DatabaseTarget;
  drop: () => Promise<void>;
}

/**
 * An empty database of its own, for tests that build a schema step by step (migrations): a new
 * database on the DATABASE_URL server when one is set, else a throw-away embedded PGlite (a copy
 * of the run's empty data directory, test/support/embedded-templates.ts).
 */
export function scratchDatabase(): Promise<ScratchDatabase> {
  return newDatabase('empty');
}

/**
 * A database of its own with every migration applied: on the DATABASE_URL server a copy of the
 * run's migrated template database, else a copy of the run's migrated embedded data directory.
 * Either way a fresh one when the run has no template (a file started without the global setup).
 */
export function migratedScratchDatabase(): Promise<ScratchDatabase> {
  return newDatabase('migrated');
}

async function newDatabase(kind: TemplateKind): Promise<ScratchDatabase> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const copy = embeddedCopy(kind);
    const embedded = new EmbeddedPostgres(copy?.dataDir ?? 'memory://');
    try {
      const target = { embedded: await embedded.start() };
      return {
        target,
        drop: async () => {
          await embedded.stop();
          copy?.remove();
        },
      };
    } catch (error) {
      copy?.remove();
      throw error;
    }
  }
  const name = `scratch_${randomBytes(6).toString('hex')}`;
  const template = kind === 'migrated' ? process.env[DATABASE_TEMPLATE_ENV] : undefined;
  await onServer(
    url,
    `CREATE DATABASE ${quoteIdent(name)}${template ? ` TEMPLATE ${quoteIdent(template)}` : ''}`,
  );
  return {
    target: { url: withDatabase(url, name) },
    drop: () => onServer(url, `DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`),
  };
}
