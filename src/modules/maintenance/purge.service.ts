import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { PURGE_TARGETS, type PurgeTarget } from './purge-targets';

/**
 * Key of the PostgreSQL advisory lock that makes one instance purge at a time (any constant
 * unique to this job; pg_locks shows it as objid 0x50524745 "PRGE").
 */
export const PURGE_LOCK_KEY = 0x50524745;
/** Rows deleted per table per transaction, and transactions per run: bounds locks and WAL bursts. */
export const PURGE_BATCH_SIZE = 1000;
export const PURGE_MAX_BATCHES = 100;

export type PurgeCounts = Record<PurgeTarget, number>;

/** `ran: false` when another run (here or on another instance) held the lock. */
export interface PurgeResult {
  ran: boolean;
  deleted: PurgeCounts;
}

export interface PurgeHooks {
  /** Test seam: awaited inside the first locked transaction. */
  whileLocked?: () => Promise<void>;
}

/**
 * Deletes expired OAuth rows (purge-targets.ts says which, and why each may go). Every batch is
 * one transaction that first takes `pg_try_advisory_xact_lock`: an instance that does not get it
 * skips its run, so with many instances one purges at a time and nobody waits.
 */
@Injectable()
export class PurgeService {
  private running = false;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async runOnce(hooks: PurgeHooks = {}): Promise<PurgeResult> {
    const deleted = zeroCounts();
    // Two runs of one instance (timer and CLI) would only wait for each other's lock: skip.
    if (this.running) return { ran: false, deleted };
    this.running = true;
    try {
      const now = this.clock.now();
      for (let batch = 0; batch < PURGE_MAX_BATCHES; batch += 1) {
        const counts = await this.dataSource.transaction((manager) =>
          this.batch(manager, now, batch === 0 ? hooks : {}),
        );
        if (counts === null) return { ran: batch > 0, deleted };
        for (const target of PURGE_TARGETS) deleted[target.name] += counts[target.name];
        if (PURGE_TARGETS.every((target) => counts[target.name] < PURGE_BATCH_SIZE)) break;
      }
      return { ran: true, deleted };
    } finally {
      this.running = false;
    }
  }

  /** One locked batch over every table; null when another instance holds the lock. */
  private async batch(
    manager: EntityManager,
    now: Date,
    hooks: PurgeHooks,
  ): Promise<PurgeCounts | null> {
    const [{ locked }] = await manager.query<{ locked: boolean }[]>(
      'SELECT pg_try_advisory_xact_lock($1) AS locked',
      [PURGE_LOCK_KEY],
    );
    if (!locked) return null;
    await hooks.whileLocked?.();
    const counts = zeroCounts();
    for (const target of PURGE_TARGETS) {
      const [{ n }] = await manager.query<{ n: number }[]>(target.sql, [now, PURGE_BATCH_SIZE]);
      counts[target.name] = n;
    }
    return counts;
  }
}

function zeroCounts(): PurgeCounts {
  return Object.fromEntries(PURGE_TARGETS.map((target) => [target.name, 0])) as PurgeCounts;
}
