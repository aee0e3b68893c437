/**
 * The monthly partitions of `events` (docs/operations.md, "Events retention and partitions"):
 * `events_pYYYY_MM` holds [first instant of the UTC month, first instant of the next), and
 * `events_default` takes a row whose month has no partition yet. Names and bounds only; the
 * statements are in event-partitions.service.ts.
 */

export const DEFAULT_PARTITION = 'events_default';
/** Months created ahead of the current one, so a month's partition exists well before it starts. */
export const PARTITION_MONTHS_AHEAD = 2;

const DAY_MS = 24 * 60 * 60 * 1000;
const NAME = /^events_p(\d{4})_(\d{2})$/;

export interface MonthPartition {
  name: string;
  /** Inclusive lower bound: 00:00 UTC on the first day of the month. */
  from: Date;
  /** Exclusive upper bound: the first instant of the next month. */
  to: Date;
}

/** The partition of the UTC month `year`-`month` (month 1–12; out-of-range months roll over). */
export function monthPartition(year: number, month: number): MonthPartition {
  const from = new Date(Date.UTC(year, month - 1, 1));
  const to = new Date(Date.UTC(year, month, 1));
  const name = `events_p${from.getUTCFullYear()}_${String(from.getUTCMonth() + 1).padStart(2, '0')}`;
  return { name, from, to };
}

/** The partition holding instant `at`. */
export const partitionOf = (at: Date): MonthPartition =>
  monthPartition(at.getUTCFullYear(), at.getUTCMonth() + 1);

/** The partition of `name`, or undefined for a table that is not a monthly partition. */
export function parsePartitionName(name: string): MonthPartition | undefined {
  const m = NAME.exec(name);
  if (!m) return undefined;
  const partition = monthPartition(Number(m[1]), Number(m[2]));
  return partition.name === name ? partition : undefined;
}

/** The current month's partition and the PARTITION_MONTHS_AHEAD after it. */
export function partitionsAhead(now: Date): MonthPartition[] {
  return Array.from({ length: PARTITION_MONTHS_AHEAD + 1 }, (_, ahead) =>
    monthPartition(now.getUTCFullYear(), now.getUTCMonth() + 1 + ahead),
  );
}

/** Events before this instant are past retention. */
export const retentionCutoff = (now: Date, retentionDays: number): Date =>
  new Date(now.getTime() - retentionDays * DAY_MS);

/**
 * A partition is dropped only when its whole month is past retention: it ends at or before the
 * cutoff. The partition containing the cutoff is kept, so nothing newer than it ever goes.
 */
export const isExpired = (partition: MonthPartition, cutoff: Date): boolean =>
  partition.to.getTime() <= cutoff.getTime();
