/**
 * GET /api/v1/app/me of this service (key check, rate limit, scopes) against a bare Nest 11 +
 * Express route answering a JSON object of the same size (bench/oauth/targets/nest-bare.server.ts,
 * without its access log), and their
 * ratio (docs/performance/app-api.md; target: ≥ 0.8).
 *
 *   npm run bench:me          (builds first; DATABASE_URL's server, REDIS_URL or a private redis)
 *   BENCH_SECONDS=5 BENCH_ROUNDS=10 BENCH_CONNECTIONS=16 BENCH_PROFILE=1 npm run bench:me
 *
 * Three processes: the built service (`node dist/main.js`, production settings, access log on
 * stdout to /dev/null) on its own database `idsvc_me_bench` (re-created, migrated, an application
 * and a key made through the CLI), the bare app, and this one driving both with autocannon.
 * Rounds alternate ABBA after a warm-up; the ratio is the median of the per-round ratios; CPU per
 * request is the server process's user + system time (/proc/<pid>/stat) over the round.
 * BENCH_PROFILE=1 runs the service with --cpu-prof (profile written to bench/profiles/ on exit).
 * BENCH_BASELINE_ROOT=<dir> adds a third target: another built checkout of the service (e.g. the
 * commit before a change, `git archive` + `npm run build`), on the same database and key, so a
 * before/after pair is measured under the same load in one run.
 */
import { ChildProcess, execFileSync, fork, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { createServer, type AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { RedisServer } from '../test/support/redis-server';
import { benchDatabaseUrl, recreateDatabase } from './bench-database';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const ROOT = join(__dirname, '..');

/** The part of autocannon 8's API used here (the package ships no type declarations). */
interface AutocannonResult {
  requests: { total: number };
  latency: { p50: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
const autocannon = createRequire(__filename)('autocannon') as (options: {
  url: string;
  connections: number;
  duration: number;
  headers: Record<string, string>;
}) => Promise<AutocannonResult>;

interface Server {
  child: ChildProcess;
  url: string;
}

interface Target {
  name: string;
  server: Server;
  rounds: Round[];
}

interface Round {
  rps: number;
  /** Server process CPU (user + system) per request, microseconds. */
  cpuUs: number;
  p50Ms: number;
}

/** CPU seconds a process has used, from /proc (Linux; USER_HZ is 100 there). */
function cpuSeconds(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Waits for the line in which `pick` finds the server's URL. */
function started(
  child: ChildProcess,
  stream: 'stdout' | 'stderr',
  pick: (line: string) => string | undefined,
): Promise<Server> {
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    createInterface({ input: child[stream]! }).on('line', (line) => {
      const url = pick(line);
      if (url) resolve({ child, url });
    });
  });
}

/** The service's own database, re-created and migrated, with an application and a key made by the CLI. */
async function prepare(redisUrl: string): Promise<{ env: NodeJS.ProcessEnv; key: string }> {
  const databaseUrl = benchDatabaseUrl(process.env.BENCH_ME_DATABASE_URL, 'idsvc_me_bench');
  await recreateDatabase(databaseUrl);
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    PUBLIC_BASE_URL: 'https://bench.example',
    SESSION_SECRET: randomUUID() + randomUUID(),
    SIGNING_KEYS_SECRET: randomUUID() + randomUUID(),
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
    HOST: '127.0.0.1',
    PORT: '0',
    // Far above the load: every request takes the whole limiter path and is admitted.
    RATE_LIMIT_PER_MINUTE: '1000000000',
    RATE_LIMIT_KEY_PREFIX: `idsvc-bench:${randomUUID()}:`,
  };
  const cli = (...args: string[]): Record<string, unknown> =>
    JSON.parse(
      execFileSync(process.execPath, ['dist/cli/main.js', ...args, '--json'], {
        cwd: ROOT,
        env,
      }).toString(),
    ) as Record<string, unknown>;
  cli('migrate');
  const app = cli(
    'app',
    'create',
    '--name',
    'bench',
    '--redirect-uri',
    'https://client.example/cb',
  );
  const key = cli('key', 'create', '--app', String(app.id), '--name', 'bench', '--scopes', '');
  return { env, key: String(key.key) };
}

/** The build in `root` (`node dist/main.js`), access log on stdout to /dev/null. */
async function startService(root: string, env: NodeJS.ProcessEnv): Promise<Server> {
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=bench/profiles'] : [];
  const child = spawn(process.execPath, [...profile, join(root, 'dist/main.js')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return started(child, 'stderr', (line) => {
    const port = /\(port (\d+)\)/.exec(line)?.[1];
    return port ? `http://127.0.0.1:${port}` : undefined;
  });
}

/** A free loopback port (the bare target listens on BENCH_PORT). */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** `bench`'s bare route (bench/oauth/targets/nest-bare.server.ts), with no access log: bare. */
async function startBare(): Promise<Server> {
  const port = await freePort();
  const child = fork(join(__dirname, 'oauth/targets/nest-bare.server.ts'), [], {
    cwd: ROOT,
    env: { ...process.env, BENCH_PORT: String(port), BENCH_LOG_LEVEL: 'silent' },
    execArgv: ['-r', 'ts-node/register/transpile-only'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bare target exited with ${code}`)));
    child.once('message', (message: { ready?: { url: string } }) => {
      if (message.ready) resolve({ child, url: message.ready.url });
    });
  });
}

/** One autocannon run of SECONDS against `server`; anything but 200 aborts the benchmark. */
async function measure(server: Server, key: string): Promise<Round> {
  const cpuBefore = cpuSeconds(server.child.pid);
  const result = await autocannon({
    url: `${server.url}/api/v1/app/me`,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers: { authorization: `Bearer ${key}` },
  });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${server.url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  }
  const cpu = cpuSeconds(server.child.pid) - cpuBefore;
  const total = result.requests.total;
  return { rps: total / SECONDS, cpuUs: (cpu * 1e6) / total, p50Ms: result.latency.p50 };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function main(): Promise<void> {
  const redis = process.env.REDIS_URL ? undefined : await RedisServer.start();
  const { env, key } = await prepare(process.env.REDIS_URL ?? redis!.url);
  const targets: Target[] = [
    { name: 'service (key, limiter, scopes)', server: await startService(ROOT, env), rounds: [] },
    { name: 'bare Nest + Express route', server: await startBare(), rounds: [] },
  ];
  // Another build of the service (a checkout of the commit before a change, built), same database.
  const baseline = process.env.BENCH_BASELINE_ROOT;
  if (baseline) {
    const server = await startService(baseline, env);
    targets.push({ name: `baseline ${baseline}`, server, rounds: [] });
  }
  const load = loadavg();
  try {
    // Warm-up: JIT, pools, the script cache, the lastUsedAt write.
    for (const target of targets) await measure(target.server, key);
    for (let round = 0; round < ROUNDS; round += 1) {
      // ABBA: a slow drift of the machine's load weighs on every target alike.
      const order = round % 2 === 0 ? targets : [...targets].reverse();
      for (const target of order) target.rounds.push(await measure(target.server, key));
    }
    report(targets, [load, loadavg()]);
  } finally {
    for (const target of targets) await stop(target.server);
    await redis?.kill();
  }
}

/** SIGTERM, and wait for the exit (the service writes its CPU profile then). */
function stop({ child }: Server): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

function report(targets: Target[], load: number[][]): void {
  const [ours, bare] = targets;
  const line = ({ name, rounds }: Target): string =>
    `${name.padEnd(31)}: ${median(rounds.map((r) => r.rps)).toFixed(0)} req/s, ` +
    `${median(rounds.map((r) => r.cpuUs)).toFixed(0)} µs server CPU/request, ` +
    `p50 ${median(rounds.map((r) => r.p50Ms)).toFixed(1)} ms   rounds ` +
    rounds.map((r) => r.rps.toFixed(0)).join(' / ');
  // The median of per-round ratios resists the machine's drift better than a ratio of medians.
  const ratioTo = (target: Target): number[] =>
    target.rounds.map((r, i) => r.rps / bare.rounds[i].rps);
  const ratioLine = (target: Target): string => {
    const ratios = ratioTo(target);
    return `ratio ${target.name} / bare: ${median(ratios).toFixed(3)} (per round ${ratios.map((r) => r.toFixed(2)).join(' / ')})`;
  };
  const ratio = median(ratioTo(ours));
  process.stdout.write(
    [
      `GET /api/v1/app/me, autocannon ${CONNECTIONS} connections, ${SECONDS} s x ${ROUNDS} rounds (ABBA, medians)`,
      `node ${process.version}; load average before ${load[0].map((l) => l.toFixed(2)).join(' ')}, ` +
        `after ${load[1].map((l) => l.toFixed(2)).join(' ')}`,
      ...targets.map(line),
      ...targets.filter((t) => t !== bare).map(ratioLine),
      `target service/bare >= 0.8: ${ratio >= 0.8 ? 'met' : 'NOT met'}`,
      '',
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
