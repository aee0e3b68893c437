/**
 * The token-endpoint benchmark (docs/performance/oauth.md): this service, oidc-provider
 * in memory, oidc-provider on PostgreSQL and a bare Nest route, each in a process of its own, driven
 * by one load generator in another process, at a sweep of concurrency levels; after a warm-up,
 * rounds in which every level runs every target, in alternating order. Reported per target and
 * operation: the peak ops/s over the sweep and the level it was reached at, p50 and p99 latency
 * at each level, ours ÷ peer of the peaks and of the p99s at each level (medians of per-round
 * ratios), and CPU per operation of each server and of PostgreSQL at each level.
 *
 *   npm run bench:oauth
 *   BENCH_NODE=$(scripts/node-lts.sh) npm run bench:oauth      servers on the current LTS
 *   BENCH_OPS=6000 BENCH_ROUNDS=3 BENCH_WARMUP=2000 BENCH_LOG_LEVEL=info
 *   BENCH_CONCURRENCY=8,16,32,64
 *     the levels of the sweep (connections of the load generator); one number measures that
 *     level alone, as the harness did before the sweep (BENCH_CONCURRENCY=16)
 *   BENCH_TARGETS=ours,memory,postgres,bare   BENCH_OPERATIONS=exchange,refresh,userinfo,introspection,me
 *   BENCH_OAUTH_DATABASE_URL / BENCH_OIDC_DATABASE_URL (else DATABASE_URL's server,
 *   databases idsvc_oauth_bench and idsvc_oidc_bench, re-created each run)
 *   REDIS_URL   the rate limiter's Redis for our servers (else each keeps its own buckets)
 *   BENCH_INSTANCES=2 BENCH_TARGETS=ours,memory
 *     scale-out: beside `ours`, the target `ours×2`, two processes of this build on one database
 *     (idsvc_oauth_bench_instances, prepared once) and one Redis, the load generator's
 *     connections spread over them round robin; their CPU counts as one server's. Without
 *     REDIS_URL both `ours` and `ours×2` use redis://127.0.0.1:6379/9, the benchmark's own db,
 *     so the two are compared with the same limiter. The in-memory peer has no such target:
 *     its store lives in its one process.
 *   BENCH_BASELINE=/path/to/other/checkout BENCH_TARGETS=ours,baseline,bare
 *     before/after in one run: the other checkout's build (`npm run build` there first) as the
 *     `baseline` target, on its own database idsvc_oauth_bench_baseline, rounds alternating
 *   BENCH_TARGETS=ours,metrics BENCH_OPERATIONS=exchange,refresh
 *     the cost of the Prometheus metrics: `metrics` is this tree with METRICS_PORT set, on its own
 *     database idsvc_oauth_bench_metrics, against `ours` (metrics off) in the same rounds
 *   BENCH_BARE=service
 *     the bare route on the service's own HTTP server and access log instead of Nest's documented
 *     setup (bench/oauth/targets/nest-bare.server.ts)
 *   BENCH_NODE_FLAGS="--flag …"   extra Node flags for our server (diagnostics: V8's logs, probes)
 *   BENCH_TARGETS=ours,traced BENCH_OPERATIONS=exchange
 *     tracing off vs on in one run (docs/performance/tracing.md): `traced` is this build with
 *     OTEL_EXPORTER_OTLP_ENDPOINT set, exporting to a loopback sink that discards the spans, on
 *     its own database idsvc_oauth_bench_traced
 */
import { execFileSync, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { describeRedisUrl } from '../../src/modules/rate-limit/redis-client';
import { OtlpReceiver } from '../../test/support/otlp-receiver';
import { benchDatabaseUrl } from '../bench-database';
import { Child } from './child';
import { machineJiffies, PostgresCpu, processesCpuUs } from './cpu';
import type { LoadResult } from './generator';
import { ours } from './ours';
import { nestBare, oidcProvider } from './peers';
import { levelTable, peakTable, perRound, type Sample, type Samples } from './report';
import { parseLevels } from './sweep';
import { OPERATIONS, type OpName, type Target } from './target';

const env = process.env;
const OPS = Number(env.BENCH_OPS ?? 6000);
const WARMUP = Number(env.BENCH_WARMUP ?? 2000);
const ROUNDS = Number(env.BENCH_ROUNDS ?? 3);
const LEVELS = parseLevels(env.BENCH_CONCURRENCY);
const INSTANCES = Number(env.BENCH_INSTANCES ?? 1);
const LOG_LEVEL = env.BENCH_LOG_LEVEL ?? 'info';
const NODE = env.BENCH_NODE ?? process.execPath;
const TARGETS = (env.BENCH_TARGETS ?? 'ours,memory,postgres,bare').split(',');
const ONLY_OPS = (env.BENCH_OPERATIONS ?? OPERATIONS.map((o) => o.op).join(',')).split(',');
const OURS_DB = benchDatabaseUrl(env.BENCH_OAUTH_DATABASE_URL, 'idsvc_oauth_bench');
const OIDC_DB = benchDatabaseUrl(env.BENCH_OIDC_DATABASE_URL, 'idsvc_oidc_bench');
const BASELINE_DB = benchDatabaseUrl(undefined, 'idsvc_oauth_bench_baseline');
const METRICS_DB = benchDatabaseUrl(undefined, 'idsvc_oauth_bench_metrics');
const TRACED_DB = benchDatabaseUrl(undefined, 'idsvc_oauth_bench_traced');
const INSTANCES_DB = benchDatabaseUrl(undefined, 'idsvc_oauth_bench_instances');
/** The Redis db the benchmark owns, for our servers when several share one limiter. */
const BENCH_REDIS_URL = 'redis://127.0.0.1:6379/9';
// With several instances the limiter must be shared, as on a deployment; `ours` then uses the
// same Redis, so `ours` and `ours×N` differ in the number of processes only.
const REDIS_URL = env.REDIS_URL || (INSTANCES > 1 ? BENCH_REDIS_URL : undefined);

/** This build with tracing on, exporting to a sink in this process that keeps nothing. */
async function traced(): Promise<Target> {
  const sink = new OtlpReceiver({ discard: true });
  const target = await ours({
    node: NODE,
    databaseUrl: TRACED_DB,
    logLevel: LOG_LEVEL,
    redisUrl: REDIS_URL,
    tracesTo: await sink.start(),
  });
  return { ...target, close: () => target.close().finally(() => sink.stop()) };
}

class Harness {
  constructor(
    private readonly generator: Child,
    private readonly postgres: PostgresCpu,
  ) {}

  /**
   * One phase: untimed inputs, then `n` requests over `connections` connections, with the
   * servers', PostgreSQL's and the whole machine's CPU read around them.
   */
  async phase(
    target: Target,
    op: OpName,
    n: number,
    connections: number,
    round: number,
  ): Promise<Sample> {
    // autocannon refuses more connections than requests (a tiny smoke run): the phase then
    // runs, and is reported, at one connection per request.
    const open = Math.min(connections, n);
    const load = await target.prepare(op, n);
    const pids = target.children.map((c) => c.pid);
    const pgBefore = target.database ? await this.postgres.sample(target.database) : null;
    const machineBefore = machineJiffies();
    const before = processesCpuUs(pids);
    const result = await this.generator.call<LoadResult>({
      load: { ...load, connections: open },
    });
    const after = processesCpuUs(pids);
    const machineAfter = machineJiffies();
    const pgAfter = target.database ? await this.postgres.sample(target.database) : null;
    if (result.failures > 0)
      throw new Error(
        `${target.name} ${op} at ${open}: ${result.failures} failed, first: ${result.firstFailure}`,
      );
    target.answered(op, result.bodies);
    let postgresUs: number | null = null;
    if (pgBefore && pgAfter) {
      const { us, lost } = PostgresCpu.spent(pgBefore, pgAfter);
      if (lost > 0)
        console.warn(`${target.name} ${op}: ${lost} PostgreSQL backend(s) exited mid-phase`);
      postgresUs = us / result.completed;
    }
    const total = machineAfter.total - machineBefore.total;
    return {
      connections: open,
      round,
      perSecond: result.completed / result.seconds,
      p50Ms: result.latencyMs.p50,
      p99Ms: result.latencyMs.p99,
      serverUs: before === null || after === null ? null : (after - before) / result.completed,
      postgresUs,
      machineBusy: total > 0 ? (machineAfter.busy - machineBefore.busy) / total : null,
    };
  }
}

function opsOf(target: Target): OpName[] {
  return target.ops.filter(
    (op) => ONLY_OPS.includes(op) || (op === 'exchange' && ONLY_OPS.includes('refresh')),
  );
}

async function startTargets(version: string): Promise<Target[]> {
  const targets: Target[] = [];
  const factories: Record<string, () => Promise<Target>> = {
    ours: () =>
      ours({ node: NODE, databaseUrl: OURS_DB, logLevel: LOG_LEVEL, redisUrl: REDIS_URL }),
    baseline: () => {
      if (!env.BENCH_BASELINE) throw new Error('the baseline target needs BENCH_BASELINE');
      return ours({
        node: NODE,
        databaseUrl: BASELINE_DB,
        logLevel: LOG_LEVEL,
        redisUrl: REDIS_URL,
        tree: env.BENCH_BASELINE,
      });
    },
    metrics: () =>
      ours({
        node: NODE,
        databaseUrl: METRICS_DB,
        logLevel: LOG_LEVEL,
        redisUrl: REDIS_URL,
        metrics: true,
      }),
    traced,
    memory: () =>
      oidcProvider({
        node: NODE,
        storage: 'memory',
        databaseUrl: OIDC_DB,
        logLevel: LOG_LEVEL,
        version,
      }),
    postgres: () =>
      oidcProvider({
        node: NODE,
        storage: 'postgres',
        databaseUrl: OIDC_DB,
        logLevel: LOG_LEVEL,
        version,
      }),
    bare: () =>
      nestBare({
        node: NODE,
        logLevel: LOG_LEVEL,
        variant: env.BENCH_BARE === 'service' ? 'service' : 'stock',
      }),
  };
  try {
    for (const key of TARGETS) {
      const factory = factories[key];
      if (!factory) throw new Error(`BENCH_TARGETS: no target ${key}`);
      targets.push(await factory());
      // The scaled-out target right beside the one-process one, so the report pairs them.
      if (key === 'ours' && INSTANCES > 1)
        targets.push(
          await ours({
            node: NODE,
            databaseUrl: INSTANCES_DB,
            logLevel: LOG_LEVEL,
            redisUrl: REDIS_URL,
            instances: INSTANCES,
          }),
        );
    }
  } catch (error) {
    await Promise.all(targets.map((t) => t.close()));
    throw error;
  }
  return targets;
}

/** What the tables' columns mean, and what the run could not measure, under the tables. */
function footnotes(targets: Target[]): string {
  const notes = [
    "ours ÷ target: at the peak, the median over the rounds of ours' best rate in the round ÷ " +
      "the target's best in the same round; p99 at each level, the median of per-round ratios " +
      '(below 1: ours answers its slowest hundredth sooner).',
    'server cores: server CPU per operation × ops/s, the cores its process(es) kept busy; near ' +
      "1 per process, a server's JavaScript thread is the limit. machine busy: all cores during " +
      'the phase, the load generator and PostgreSQL included. PostgreSQL CPU: the client ' +
      "backends of the target's database only (not the WAL writer nor the checkpointer).",
  ];
  const scaled = targets.find((t) => t.children.length > 1);
  if (scaled)
    notes.push(
      `${scaled.name}: ${scaled.children.length} processes of this build on one database and one ` +
        "Redis, the load generator's connections spread over them round robin; its server CPU is " +
        'their sum, and its ratios read the other way round, marked "(÷ ours)": its peak ÷ ' +
        "ours' (the scale-out factor) and its p99 ÷ ours'. oidc-provider in memory has no " +
        'such target: its codes, grants and tokens live ' +
        'in its one process, which a second process could not see (a code issued by one could not ' +
        'be exchanged at the other).',
    );
  return notes.map((note) => `- ${note}`).join('\n');
}

async function main(): Promise<void> {
  if (!Number.isInteger(INSTANCES) || INSTANCES < 1)
    throw new Error(`BENCH_INSTANCES: ${env.BENCH_INSTANCES} is not a positive whole number`);
  if (INSTANCES > 1 && !TARGETS.includes('ours'))
    throw new Error('BENCH_INSTANCES scales out `ours`: BENCH_TARGETS must name it');
  const version = (
    JSON.parse(readFileSync(require.resolve('oidc-provider/package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  const serverNode = execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim();
  const load = loadavg().map((v) => v.toFixed(2));
  console.log(
    `OAuth benchmark: ${ROUNDS} rounds × ${OPS} operations per target, operation and level, ` +
      `${WARMUP} warm-up at ${LEVELS[LEVELS.length - 1]} connections; levels ${LEVELS.join(', ')} ` +
      `connections${INSTANCES > 1 ? `; ours also as ${INSTANCES} instances` : ''}; ` +
      `servers on Node ${serverNode}, generator on Node ${process.version}; ` +
      `log level ${LOG_LEVEL}; Redis ${REDIS_URL ? describeRedisUrl(REDIS_URL) : 'none (in-process limiter)'}; ` +
      `load average at start ${load.join(' ')}`,
  );
  const generator = new Child(
    'load generator',
    fork(join(__dirname, 'generator.ts'), [], {
      execArgv: ['-r', 'ts-node/register/transpile-only'],
    }),
  );
  const postgres = await PostgresCpu.connect(OURS_DB);
  const targets: Target[] = [];
  try {
    targets.push(...(await startTargets(version)));
    const harness = new Harness(generator, postgres);
    // At the highest level, so the servers' pools and PostgreSQL's backends are all open
    // before the first timed phase.
    for (const target of targets)
      for (const op of opsOf(target))
        await harness.phase(target, op, WARMUP, LEVELS[LEVELS.length - 1], -1);
    const samples: Samples = new Map(targets.map((t) => [t.key, new Map()]));
    const machineBefore = machineJiffies();
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [index, connections] of LEVELS.entries()) {
        // ABC, CBA, ABC, … from one level to the next and, at each level, from one round to the
        // next: a drifting load on the machine weighs on every target alike.
        const order = (round + index) % 2 === 0 ? targets : [...targets].reverse();
        for (const target of order)
          for (const op of opsOf(target)) {
            const sample = await harness.phase(target, op, OPS, connections, round);
            const bucket = samples.get(target.key)!;
            bucket.set(op, [...(bucket.get(op) ?? []), sample]);
          }
      }
      process.stderr.write(`round ${round + 1}/${ROUNDS} done (load ${loadavg()[0].toFixed(2)})\n`);
    }
    const machineAfter = machineJiffies();
    const busy =
      (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total);
    console.log(
      `\n### Peak over the sweep (CPU at the peak's level)\n\n${peakTable(targets, samples)}\n\n` +
        `### Each level (medians over the rounds)\n\n${levelTable(targets, samples)}\n\n` +
        `${footnotes(targets)}\n\nops/s per round, by connections:\n${perRound(targets, samples)}`,
    );
    console.log(
      `\nmachine CPU busy during the rounds: ${(busy * 100).toFixed(0)} %; load average at end ` +
        `${loadavg()
          .map((v) => v.toFixed(2))
          .join(' ')}`,
    );
  } finally {
    for (const target of targets) await target.close();
    await postgres.close();
    await generator.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
