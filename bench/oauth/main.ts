/**
 * The token-endpoint benchmark (docs/performance/oauth.md): this service, oidc-provider
 * in memory, oidc-provider on PostgreSQL and a bare Nest route, each in a process of its own, driven
 * by one load generator in another process; rounds in alternating order after a warm-up; medians,
 * the median of per-round ratios, and CPU per operation of each server and of PostgreSQL.
 *
 *   npm run bench:oauth
 *   BENCH_NODE=$(scripts/node-lts.sh) npm run bench:oauth      servers on the current LTS
 *   BENCH_OPS=3000 BENCH_ROUNDS=4 BENCH_WARMUP=2000 BENCH_CONCURRENCY=16 BENCH_LOG_LEVEL=info
 *   BENCH_TARGETS=ours,memory,postgres,bare   BENCH_OPERATIONS=exchange,refresh,userinfo,introspection,me
 *   BENCH_OAUTH_DATABASE_URL / BENCH_OIDC_DATABASE_URL (else DATABASE_URL's server,
 *   databases idsvc_oauth_bench and idsvc_oidc_bench, re-created each run)
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
import { OtlpReceiver } from '../../test/support/otlp-receiver';
import { benchDatabaseUrl } from '../bench-database';
import { Child } from './child';
import { machineJiffies, PostgresCpu, processCpuUs } from './cpu';
import type { LoadResult } from './generator';
import { ours } from './ours';
import { nestBare, oidcProvider } from './peers';
import { perRound, type Sample, type Samples, table } from './report';
import { OPERATIONS, type OpName, type Target } from './target';

const env = process.env;
const OPS = Number(env.BENCH_OPS ?? 3000);
const WARMUP = Number(env.BENCH_WARMUP ?? 2000);
const ROUNDS = Number(env.BENCH_ROUNDS ?? 4);
const CONCURRENCY = Number(env.BENCH_CONCURRENCY ?? 16);
const LOG_LEVEL = env.BENCH_LOG_LEVEL ?? 'info';
const NODE = env.BENCH_NODE ?? process.execPath;
const TARGETS = (env.BENCH_TARGETS ?? 'ours,memory,postgres,bare').split(',');
const ONLY_OPS = (env.BENCH_OPERATIONS ?? OPERATIONS.map((o) => o.op).join(',')).split(',');
const OURS_DB = benchDatabaseUrl(env.BENCH_OAUTH_DATABASE_URL, 'idsvc_oauth_bench');
const OIDC_DB = benchDatabaseUrl(env.BENCH_OIDC_DATABASE_URL, 'idsvc_oidc_bench');
const BASELINE_DB = benchDatabaseUrl(undefined, 'idsvc_oauth_bench_baseline');
const METRICS_DB = benchDatabaseUrl(undefined, 'idsvc_oauth_bench_metrics');
const TRACED_DB = benchDatabaseUrl(undefined, 'idsvc_oauth_bench_traced');

/** This build with tracing on, exporting to a sink in this process that keeps nothing. */
async function traced(): Promise<Target> {
  const sink = new OtlpReceiver({ discard: true });
  const target = await ours({
    node: NODE,
    databaseUrl: TRACED_DB,
    logLevel: LOG_LEVEL,
    tracesTo: await sink.start(),
  });
  return { ...target, close: () => target.close().finally(() => sink.stop()) };
}

class Harness {
  constructor(
    private readonly generator: Child,
    private readonly postgres: PostgresCpu,
  ) {}

  /** One phase: untimed inputs, then `n` requests with the servers' CPU read around them. */
  async phase(target: Target, op: OpName, n: number): Promise<Sample> {
    const load = await target.prepare(op, n);
    const pgBefore = target.database ? await this.postgres.sample(target.database) : null;
    const before = processCpuUs(target.child.pid);
    const result = await this.generator.call<LoadResult>({
      load: { ...load, connections: CONCURRENCY },
    });
    const after = processCpuUs(target.child.pid);
    const pgAfter = target.database ? await this.postgres.sample(target.database) : null;
    if (result.failures > 0)
      throw new Error(
        `${target.name} ${op}: ${result.failures} failed, first: ${result.firstFailure}`,
      );
    target.answered(op, result.bodies);
    let postgresUs: number | null = null;
    if (pgBefore && pgAfter) {
      const { us, lost } = PostgresCpu.spent(pgBefore, pgAfter);
      if (lost > 0)
        console.warn(`${target.name} ${op}: ${lost} PostgreSQL backend(s) exited mid-phase`);
      postgresUs = us / result.completed;
    }
    return {
      perSecond: result.completed / result.seconds,
      serverUs: before === null || after === null ? null : (after - before) / result.completed,
      postgresUs,
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
    ours: () => ours({ node: NODE, databaseUrl: OURS_DB, logLevel: LOG_LEVEL }),
    baseline: () => {
      if (!env.BENCH_BASELINE) throw new Error('the baseline target needs BENCH_BASELINE');
      return ours({
        node: NODE,
        databaseUrl: BASELINE_DB,
        logLevel: LOG_LEVEL,
        tree: env.BENCH_BASELINE,
      });
    },
    metrics: () =>
      ours({ node: NODE, databaseUrl: METRICS_DB, logLevel: LOG_LEVEL, metrics: true }),
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
    for (const key of TARGETS) targets.push(await factories[key]());
  } catch (error) {
    await Promise.all(targets.map((t) => t.close()));
    throw error;
  }
  return targets;
}

async function main(): Promise<void> {
  const version = (
    JSON.parse(readFileSync(require.resolve('oidc-provider/package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  const serverNode = execFileSync(NODE, ['--version'], { encoding: 'utf8' }).trim();
  const load = loadavg().map((v) => v.toFixed(2));
  console.log(
    `OAuth benchmark: ${ROUNDS} rounds × ${OPS} operations per target and operation, ${WARMUP} warm-up, ` +
      `${CONCURRENCY} connections; servers on Node ${serverNode}, generator on Node ${process.version}; ` +
      `log level ${LOG_LEVEL}; Redis ${env.REDIS_URL ? 'REDIS_URL' : 'none (in-process limiter)'}; ` +
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
    for (const target of targets)
      for (const op of opsOf(target)) await harness.phase(target, op, WARMUP);
    const samples: Samples = new Map(targets.map((t) => [t.key, new Map()]));
    const machineBefore = machineJiffies();
    for (let round = 0; round < ROUNDS; round += 1) {
      // ABC, CBA, ABC, …: a drifting load on the machine weighs on every target alike.
      const order = round % 2 === 0 ? targets : [...targets].reverse();
      for (const target of order)
        for (const op of opsOf(target)) {
          const sample = await harness.phase(target, op, OPS);
          const bucket = samples.get(target.key)!;
          bucket.set(op, [...(bucket.get(op) ?? []), sample]);
        }
      process.stderr.write(`round ${round + 1}/${ROUNDS} done (load ${loadavg()[0].toFixed(2)})\n`);
    }
    const machineAfter = machineJiffies();
    const busy =
      (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total);
    console.log(`\n${table(targets, samples)}\n\nops/s per round:\n${perRound(targets, samples)}`);
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
