/**
 * Throughput of GET /api/v1/app/me with the Redis rate limiter and with the limiter switched off
 * (RATE_LIMIT_ENABLED=false), side by side in one run, and their ratio (docs/performance/limiter.md).
 *
 *   npm run bench:limiter
 *   BENCH_SECONDS=5 BENCH_ROUNDS=10 BENCH_CONNECTIONS=32 npm run bench:limiter
 *   BENCH_BASELINE=/path/to/other/checkout npm run bench:limiter
 *
 * BENCH_BASELINE adds a third server, that checkout's own bench server with its limiter on (it
 * must have this file and share the schema), to every round, so a change to the limiter is
 * measured before and after in one run: the report adds its figures and the per-round ratio of
 * this tree's limiter to the baseline's.
 *
 * Each variant is a separate server process (the same code, one env switch apart), loaded in
 * turn from this process over keep-alive loopback connections; rounds alternate (ABBA) so
 * drift affects both alike, and the median of the per-round ratios is reported. Database: DATABASE_URL if set (both
 * servers share it), else an embedded PGlite per server. Redis: REDIS_URL if set, else a
 * private redis-server. The per-application limit is set far above the load, so every request
 * takes the full limiter path and is admitted.
 */
import 'reflect-metadata';
import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../src/app.module';
import { configureApp } from '../src/app.setup';
import { loadConfig } from '../src/config/app-config';
import { ApplicationsService } from '../src/modules/applications/applications.service';
import { ApiKeysService } from '../src/modules/keys/api-keys.service';
import { RedisServer } from '../test/support/redis-server';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const BASELINE = process.env.BENCH_BASELINE;

interface Target {
  url: string;
  key: string;
  pid?: number;
}

interface Round {
  rps: number;
  /** Server process CPU (user + system) per request, microseconds; NaN off Linux. */
  cpuUs: number;
}

/** CPU seconds a process has used, from /proc (Linux; USER_HZ is 100 there). */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** Child role: boot the app, create an application and key, report them, serve until killed. */
async function serve(): Promise<void> {
  const config = loadConfig(process.env);
  const app = await NestFactory.create(AppModule.forRoot(config), { bufferLogs: true });
  configureApp(app);
  await app.listen(0, '127.0.0.1');
  const { application } = await app.get(ApplicationsService).create({
    name: `bench ${randomUUID()}`,
    redirectUris: ['https://client.example/cb'],
    authMethod: 'secret',
  });
  const { plaintext } = await app.get(ApiKeysService).create(application.id, 'bench', []);
  process.stdout.write(`${JSON.stringify({ url: await app.getUrl(), key: plaintext })}\n`);
}

/** A server of this tree, or of `tree` (another checkout: its own copy of this file). */
function startServer(
  env: Record<string, string>,
  tree?: string,
): Promise<{ child: ChildProcess; target: Target }> {
  const script = tree ? join(tree, 'bench', 'limiter.bench.ts') : __filename;
  const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', script], {
    cwd: tree ?? process.cwd(),
    env: { ...process.env, ...env, BENCH_ROLE: 'server' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.startsWith('{"url"')) return;
      resolve({ child, target: { ...(JSON.parse(line) as Target), pid: child.pid } });
    });
  });
}

/** Requests per second over SECONDS with CONNECTIONS requests in flight; any non-200 aborts. */
async function measure({ url, key, pid }: Target): Promise<Round> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const { hostname, port } = new URL(url);
  const once = (): Promise<number> =>
    new Promise((resolve, reject) => {
      const req = request(
        {
          agent,
          hostname,
          port,
          path: '/api/v1/app/me',
          headers: { Authorization: `Bearer ${key}` },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end();
    });
  let done = 0;
  const deadline = performance.now() + SECONDS * 1000;
  const started = performance.now();
  const cpuBefore = cpuSeconds(pid);
  const worker = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const status = await once();
      if (status !== 200) throw new Error(`unexpected status ${status}`);
      done += 1;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  return { rps: done / elapsed, cpuUs: ((cpuSeconds(pid) - cpuBefore) * 1e6) / done };
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  const redis = process.env.REDIS_URL ? undefined : await RedisServer.start();
  const common = {
    NODE_ENV: 'production',
    PUBLIC_BASE_URL: 'https://bench.example',
    SESSION_SECRET: randomUUID() + randomUUID(),
    SIGNING_KEYS_SECRET: randomUUID() + randomUUID(),
    LOG_LEVEL: 'warn',
    EMBEDDED_DATA_DIR: 'memory://',
    RATE_LIMIT_PER_MINUTE: '1000000000',
    RATE_LIMIT_KEY_PREFIX: `idsvc-bench:${randomUUID()}:`,
  };
  const withRedis = await startServer({
    ...common,
    REDIS_URL: process.env.REDIS_URL ?? redis!.url,
  });
  const disabled = await startServer({ ...common, RATE_LIMIT_ENABLED: 'false' });
  const baseline = BASELINE
    ? await startServer({ ...common, REDIS_URL: process.env.REDIS_URL ?? redis!.url }, BASELINE)
    : undefined;
  try {
    await measure(withRedis.target); // warm-up: JIT, connection pools, lastUsedAt write
    await measure(disabled.target);
    if (baseline) await measure(baseline.target);
    const results = { redis: [] as Round[], off: [] as Round[], baseline: [] as Round[] };
    for (let round = 0; round < ROUNDS; round += 1) {
      // ABBA order: a slow drift of the machine's load weighs on both variants alike.
      if (round % 2 === 0) results.redis.push(await measure(withRedis.target));
      if (round % 2 === 0 && baseline) results.baseline.push(await measure(baseline.target));
      results.off.push(await measure(disabled.target));
      if (round % 2 === 1 && baseline) results.baseline.push(await measure(baseline.target));
      if (round % 2 === 1) results.redis.push(await measure(withRedis.target));
    }
    report(results.redis, results.off, results.baseline);
  } finally {
    withRedis.child.kill();
    disabled.child.kill();
    baseline?.child.kill();
    await redis?.kill();
  }
}

function report(redisRounds: Round[], offRounds: Round[], baselineRounds: Round[]): void {
  const redis = redisRounds.map((r) => r.rps);
  const off = offRounds.map((r) => r.rps);
  const cpu = (rounds: Round[]): string => median(rounds.map((r) => r.cpuUs)).toFixed(0);
  const fmt = (values: number[]): string => values.map((v) => v.toFixed(0)).join(' / ');
  const fmtRatios = (a: number[], b: number[]): string =>
    a.map((value, i) => (value / b[i]).toFixed(2)).join(' / ');
  // Each round pairs two adjacent measurements; the median of the pair ratios resists noise
  // from other work on the machine better than a ratio of medians.
  const ratio = median(redis.map((value, i) => value / off[i]));
  const base = baselineRounds.map((r) => r.rps);
  const baselineLines =
    base.length === 0
      ? []
      : [
          `baseline on (Redis) : ${median(base).toFixed(0)} req/s, ${cpu(baselineRounds)} µs server CPU/request   rounds ${fmt(base)}   (${BASELINE})`,
          `baseline on/off     : ${median(base.map((value, i) => value / off[i])).toFixed(3)} (median of per-round ratios ${fmtRatios(base, off)})`,
          `this / baseline (on): ${median(redis.map((value, i) => value / base[i])).toFixed(3)} (median of per-round ratios ${fmtRatios(redis, base)})`,
        ];
  process.stdout.write(
    [
      `GET /api/v1/app/me, ${CONNECTIONS} connections, ${SECONDS} s x ${ROUNDS} rounds (median)`,
      `database: ${process.env.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite'}; ` +
        `redis: ${process.env.REDIS_URL ? 'REDIS_URL' : 'private redis-server'}`,
      `limiter on (Redis)  : ${median(redis).toFixed(0)} req/s, ${cpu(redisRounds)} µs server CPU/request   rounds ${fmt(redis)}`,
      `limiter off         : ${median(off).toFixed(0)} req/s, ${cpu(offRounds)} µs server CPU/request   rounds ${fmt(off)}`,
      `ratio on/off        : ${ratio.toFixed(3)} (median of per-round ratios ${fmtRatios(redis, off)})   (target >= 0.9: ${ratio >= 0.9 ? 'met' : 'NOT met'})`,
      ...baselineLines,
      '',
    ].join('\n'),
  );
}

const run = process.env.BENCH_ROLE === 'server' ? serve : main;
run().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
