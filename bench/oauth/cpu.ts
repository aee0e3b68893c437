/**
 * CPU time from Linux's /proc, for the per-operation figures: a server process's own
 * utime + stime (all its threads), and the sum over the PostgreSQL backends that serve one
 * database (pg_stat_activity lists them; each is a process of the local server).
 */
import { readFileSync } from 'node:fs';
import { Client } from 'pg';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** CPU microseconds a process has used so far, or null when /proc does not show it. */
export function processCpuUs(pid: number): number | null {
  try {
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1e6;
  } catch {
    return null;
  }
}

/**
 * CPU microseconds several processes have used so far, together (a target of several server
 * instances serves one load), or null when /proc does not show one of them.
 */
export function processesCpuUs(pids: number[]): number | null {
  let sum = 0;
  for (const pid of pids) {
    const us = processCpuUs(pid);
    if (us === null) return null;
    sum += us;
  }
  return sum;
}

/** The harness's own connections carry this name and are left out of the sums. */
export const HARNESS_APPLICATION_NAME = 'bench-harness';

/**
 * CPU of the client backends of one database. Sampled just before and just after a phase: a
 * backend that starts during the phase counts from zero (its start-up is part of the load), one
 * that exits during the phase would be missed and is reported (pools keep idle connections for
 * 30 s, longer than any gap inside a phase). The WAL writer, checkpointer and the other shared
 * processes are not counted: other databases on the server use them too.
 */
export class PostgresCpu {
  private constructor(private readonly monitor: Client) {}

  static async connect(serverUrl: string): Promise<PostgresCpu> {
    const url = new URL(serverUrl);
    url.pathname = '/postgres';
    const monitor = new Client({
      connectionString: url.toString(),
      application_name: HARNESS_APPLICATION_NAME,
    });
    await monitor.connect();
    return new PostgresCpu(monitor);
  }

  /** CPU microseconds so far of each client backend of `database` (the harness's excluded). */
  async sample(database: string): Promise<Map<number, number>> {
    const { rows } = await this.monitor.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity
        WHERE datname = $1 AND backend_type = 'client backend' AND application_name <> $2`,
      [database, HARNESS_APPLICATION_NAME],
    );
    const sample = new Map<number, number>();
    for (const { pid } of rows) {
      const us = processCpuUs(pid);
      if (us !== null) sample.set(pid, us);
    }
    return sample;
  }

  /** CPU microseconds between two samples, and how many backends vanished in between. */
  static spent(
    before: Map<number, number>,
    after: Map<number, number>,
  ): { us: number; lost: number } {
    let us = 0;
    for (const [pid, now] of after) us += now - (before.get(pid) ?? 0);
    const lost = [...before.keys()].filter((pid) => !after.has(pid)).length;
    return { us, lost };
  }

  close(): Promise<void> {
    return this.monitor.end();
  }
}

/** Busy share of the whole machine's CPU between two /proc/stat readings. */
export function machineJiffies(): { busy: number; total: number } {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  const jiffies = fields.slice(0, 8).map(Number); // user … steal; guest is inside user
  const total = jiffies.reduce((a, b) => a + b, 0);
  return { busy: total - jiffies[3] - jiffies[4], total };
}
