import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { AppConfig } from '../../config/app-config';
import {
  DEFAULT_PARTITION,
  isExpired,
  type MonthPartition,
  parsePartitionName,
  partitionOf,
  partitionsAhead,
  retentionCutoff,
} from './event-partitions';

/**
 * Key of the advisory lock that makes one instance change the partitions at a time (any constant
 * unique to this job; pg_locks shows it as objid 0x45505254 "EPRT"). Unlike the purge's, it is
 * waited for: a second instance then finds the work done.
 */
export const PARTITIONS_LOCK_KEY = 0x45505254;
/**
 * How long creating or dropping a partition waits for its ACCESS EXCLUSIVE lock on `events`
 * (queries queue behind it meanwhile); on timeout the run fails and the next one retries.
 */
export const PARTITION_LOCK_TIMEOUT_MS = 1000;

const COLUMNS =
  'id, application_id, event_type, protocol, status, user_id, scope, description, created_at';

export interface PartitionRun {
  /** Partitions created, each with the events moved into it from the default partition. */
  created: { name: string; moved: number }[];
  /** Partitions dropped for retention, each with the events it held. */
  dropped: { name: string; events: number }[];
  /** Events of expired months deleted from the default partition. */
  expiredInDefault: number;
}

/**
 * Keeps the monthly partitions of `events` (docs/operations.md, "Events retention and
 * partitions"): the current month and the next PARTITION_MONTHS_AHEAD exist, rows that landed in
 * the default partition move to their month's new partition, and months wholly older than
 * EVENTS_RETENTION_DAYS are dropped. Safe on many instances at once and idempotent.
 */
@Injectable()
export class EventPartitionsService {
  private readonly logger = new Logger('EventPartitions');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async runOnce(): Promise<PartitionRun> {
    const now = this.clock.now();
    const cutoff = retentionCutoff(now, this.config.eventsRetentionDays);
    const run: PartitionRun = { created: [], dropped: [], expiredInDefault: 0 };
    const existing = await this.monthlyPartitions();
    const wanted = new Map<string, MonthPartition>();
    for (const p of [...partitionsAhead(now), ...(await this.defaultMonths())]) {
      if (!existing.has(p.name) && !isExpired(p, cutoff)) wanted.set(p.name, p);
    }
    for (const partition of wanted.values()) {
      const moved = await this.create(partition);
      if (moved !== null) run.created.push({ name: partition.name, moved });
    }
    run.expiredInDefault = await this.deleteExpiredFromDefault(cutoff);
    for (const partition of existing.values()) {
      if (!isExpired(partition, cutoff)) continue;
      const events = await this.drop(partition);
      if (events !== null) run.dropped.push({ name: partition.name, events });
    }
    for (const partition of await this.detachedPartitions()) {
      if (!isExpired(partition, cutoff)) continue;
      run.dropped.push({ name: partition.name, events: await this.dropDetached(partition.name) });
    }
    this.report(run, cutoff);
    return run;
  }

  /** The monthly partitions attached to `events`, by name. */
  private async monthlyPartitions(): Promise<Map<string, MonthPartition>> {
    const rows = await this.dataSource.query<{ name: string }[]>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'events'::regclass`,
    );
    const partitions = rows.map((row) => parsePartitionName(row.name));
    return new Map(partitions.filter((p) => p !== undefined).map((p) => [p.name, p]));
  }

  /**
   * Monthly tables no longer attached to `events`: a month detached for retention whose drop did
   * not happen (the process stopped between the two), dropped by the next run.
   */
  private async detachedPartitions(): Promise<MonthPartition[]> {
    const rows = await this.dataSource.query<{ name: string }[]>(
      `SELECT c.relname AS name FROM pg_class c
        WHERE c.relkind = 'r' AND c.relnamespace = current_schema()::regnamespace
          AND c.relname LIKE 'events\\_p%'
          AND NOT EXISTS (SELECT 1 FROM pg_inherits i WHERE i.inhrelid = c.oid)`,
    );
    return rows.map((row) => parsePartitionName(row.name)).filter((p) => p !== undefined);
  }

  /** The months of the rows in the default partition (normally none). */
  private async defaultMonths(): Promise<MonthPartition[]> {
    const rows = await this.dataSource.query<{ at: Date }[]>(
      `SELECT DISTINCT date_trunc('month', created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS at
         FROM ${DEFAULT_PARTITION}`,
    );
    return rows.map((row) => partitionOf(row.at));
  }

  /**
   * Creates the partition as a plain table, moves its month's rows out of the default partition
   * (ids and timestamps kept: the id trigger is not on the table yet) and attaches it, all under
   * an ACCESS EXCLUSIVE lock on `events`, so no query sees the rows in neither place. Returns the
   * rows moved, or null when another instance created it first.
   */
  private create(partition: MonthPartition): Promise<number | null> {
    return this.locked(async (manager) => {
      if (await exists(manager, partition.name)) return null;
      await manager.query('LOCK TABLE events IN ACCESS EXCLUSIVE MODE');
      await manager.query(`CREATE TABLE ${partition.name} (LIKE events INCLUDING DEFAULTS)`);
      const [{ n }] = await manager.query<{ n: number }[]>(
        `WITH moved AS (
           DELETE FROM ${DEFAULT_PARTITION} WHERE created_at >= $1 AND created_at < $2
           RETURNING ${COLUMNS}),
         copied AS (INSERT INTO ${partition.name} (${COLUMNS}) SELECT ${COLUMNS} FROM moved RETURNING 1)
         SELECT count(*)::int AS n FROM copied`,
        [partition.from, partition.to],
      );
      await manager.query(
        `ALTER TABLE events ATTACH PARTITION ${partition.name}
           FOR VALUES FROM ('${partition.from.toISOString()}') TO ('${partition.to.toISOString()}')`,
      );
      return n;
    });
  }

  /**
   * Drops a partition past retention; returns the events it held, or null if already gone. It is
   * detached under the ACCESS EXCLUSIVE lock on `events` (a catalog change, quick), and counted
   * and dropped after that transaction: removing a big month's files then blocks nothing.
   */
  private async drop(partition: MonthPartition): Promise<number | null> {
    const detached = await this.locked(async (manager) => {
      if (!(await isAttached(manager, partition.name))) return false;
      await manager.query(`ALTER TABLE events DETACH PARTITION ${partition.name}`);
      return true;
    });
    if (!detached) return null;
    return this.dropDetached(partition.name);
  }

  /** Counts and drops a month no longer attached to `events`. */
  private async dropDetached(name: string): Promise<number> {
    const [{ n }] = await this.dataSource.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM ${name}`,
    );
    await this.dataSource.query(`DROP TABLE IF EXISTS ${name}`);
    return n;
  }

  /** Rows of the default partition whose whole month is past retention go row by row. */
  private deleteExpiredFromDefault(cutoff: Date): Promise<number> {
    return this.locked(async (manager) => {
      const [{ n }] = await manager.query<{ n: number }[]>(
        `WITH gone AS (DELETE FROM ${DEFAULT_PARTITION} WHERE created_at < $1 RETURNING 1)
         SELECT count(*)::int AS n FROM gone`,
        [partitionOf(cutoff).from],
      );
      return n;
    });
  }

  /** One transaction holding the job's lock, with a bounded wait for table locks. */
  private locked<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1)', [PARTITIONS_LOCK_KEY]);
      await manager.query(`SET LOCAL lock_timeout = '${PARTITION_LOCK_TIMEOUT_MS}ms'`);
      return work(manager);
    });
  }

  private report(run: PartitionRun, cutoff: Date): void {
    for (const { name, moved } of run.created) {
      this.logger.log(`Created events partition ${name} (${moved} event(s) moved from default)`);
    }
    for (const { name, events } of run.dropped) {
      this.logger.log(
        `Dropped events partition ${name} with ${events} event(s): its month ended before ${cutoff.toISOString()} (EVENTS_RETENTION_DAYS=${this.config.eventsRetentionDays})`,
      );
    }
    if (run.expiredInDefault > 0) {
      this.logger.log(
        `Deleted ${run.expiredInDefault} event(s) of expired months from ${DEFAULT_PARTITION}`,
      );
    }
  }
}

async function isAttached(manager: EntityManager, table: string): Promise<boolean> {
  const [{ found }] = await manager.query<{ found: boolean }[]>(
    `SELECT EXISTS (SELECT 1 FROM pg_inherits
                     WHERE inhparent = 'events'::regclass AND inhrelid = to_regclass($1)) AS found`,
    [table],
  );
  return found;
}

async function exists(manager: EntityManager, table: string): Promise<boolean> {
  const [{ found }] = await manager.query<{ found: boolean }[]>(
    'SELECT to_regclass($1) IS NOT NULL AS found',
    [table],
  );
  return found;
}
