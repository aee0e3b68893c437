import { CommandReport } from '../command-report';

/**
 * What `identity-cli status` prints (docs/operations.md, "CLI status"); with --json this object
 * as it is. A section the database could not answer is null, with the reason in `problems`.
 */
export interface StatusReport {
  /** False when `problems` is not empty; the exit code is then 1. */
  ok: boolean;
  problems: string[];
  service: { version: string; node: string };
  database: {
    kind: 'embedded' | 'external';
    reachable: boolean;
    serverVersion: string | null;
  };
  migrations: { applied: number; lastApplied: string | null; pending: string[] } | null;
  redis: {
    /** false: the rate limiter keeps its windows in process (no REDIS_URL, or limits off). */
    configured: boolean;
    reachable: boolean | null;
    pingMs: number | null;
  };
  signingKeys: {
    active: { kid: string; alg: string; activatedAt: string | null; ageDays: number } | null;
    /** The key the next `signing-key rotate` activates (rotation is manual). */
    nextKid: string | null;
    retired: number;
  } | null;
  webhooks: {
    enabled: number;
    disabled: number;
    /** Enabled endpoints whose last delivery failed (retrying with backoff). */
    failing: number;
    /** The endpoint furthest behind: committed events after its cursor, and the oldest's age. */
    worstLag: { endpointId: number; events: number; seconds: number } | null;
  } | null;
}

/** The report as the CLI prints it: JSON or lines, exit 1 when something is wrong. */
export function statusReport(report: StatusReport): CommandReport {
  return new CommandReport(report, renderStatus(report), report.ok ? 0 : 1);
}

/** The report as a terminal shows it: one aligned line per fact, problems last. */
export function renderStatus(report: StatusReport): string {
  const { service, database, migrations, redis, signingKeys, webhooks } = report;
  const lines: [string, string][] = [
    ['service', `${service.version} (Node ${service.node})`],
    [
      'database',
      `${database.kind}, ${database.reachable ? `reachable (PostgreSQL ${database.serverVersion})` : 'UNREACHABLE'}`,
    ],
    ['migrations', migrations ? migrationsLine(migrations) : 'unknown'],
    ['redis', redisLine(redis)],
    ['signing keys', signingKeys ? signingKeysLine(signingKeys) : 'unknown'],
    ['webhooks', webhooks ? webhooksLine(webhooks) : 'unknown'],
  ];
  const width = Math.max(...lines.map(([label]) => label.length)) + 2;
  const body = lines.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}`);
  const verdict = report.ok
    ? ['', 'OK']
    : ['', 'PROBLEMS:', ...report.problems.map((p) => `  - ${p}`)];
  return [...body, ...verdict].join('\n');
}

function migrationsLine(m: NonNullable<StatusReport['migrations']>): string {
  const applied = `${m.applied} applied${m.lastApplied ? ` (last ${m.lastApplied})` : ''}`;
  return m.pending.length === 0
    ? `${applied}, none pending`
    : `${applied}, ${m.pending.length} PENDING: ${m.pending.join(', ')}`;
}

function redisLine(redis: StatusReport['redis']): string {
  if (!redis.configured) return 'not configured (in-process rate-limit windows)';
  return redis.reachable ? `reachable (PING ${redis.pingMs} ms)` : 'UNREACHABLE';
}

function signingKeysLine(keys: NonNullable<StatusReport['signingKeys']>): string {
  const active = keys.active
    ? `active ${keys.active.kid} (${keys.active.alg}, ${keys.active.ageDays} days old)`
    : 'none yet (made at first use: the first id_token signed or JWKS served)';
  return `${active}, next ${keys.nextKid ?? 'none'}, ${keys.retired} retired`;
}

function webhooksLine(w: NonNullable<StatusReport['webhooks']>): string {
  const counts = `${w.enabled} enabled, ${w.disabled} disabled, ${w.failing} failing`;
  const lag = w.worstLag
    ? `worst lag: endpoint ${w.worstLag.endpointId}, ${w.worstLag.events} events, ${w.worstLag.seconds} s`
    : 'no lag';
  return `${counts}; ${lag}`;
}
