/**
 * The events table partitioned by month against the layout before migration PartitionedEvents,
 * side by side in one run (docs/performance/events.md). For each layout, its own database:
 *
 *   - the schema: every migration (partitioned) or every migration before PartitionedEvents
 *     (unpartitioned), then the whole app booted on it in-process (MIGRATIONS_RUN=false);
 *   - bulk fill: BENCH_EVENTS events spread over the previous UTC month and BENCH_EVENTS / 10 over
 *     the current one up to now, 10 applications, INSERT … SELECT generate_series with the id
 *     trigger off (ids from the same sequence), in statements of 1 M rows;
 *   - inserts: BENCH_INSERTS events through EventsService.record (the service's own statement,
 *     trigger and writer lock), BENCH_CONCURRENCY at a time, one transaction each;
 *   - GET latency over HTTP, sequential: forward pages (after=, limit 200) walking the previous
 *     month, the empty poll at the head, the newest page, GET /stats (30 UTC days over two months);
 *   - removing the previous month: DROP TABLE of its partition against DELETE of its rows.
 *
 *   npm run bench:events        (BENCH_EVENTS=1000000 BENCH_INSERTS=10000 for a quicker run)
 */
import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { AppModule } from '../src/app.module';
import { configureApp } from '../src/app.setup';
import { loadConfig } from '../src/config/app-config';
import { dataSourceOptions } from '../src/database/data-source';
import { MIGRATIONS } from '../src/database/migrations';
import { PartitionedEvents1795620000000 } from '../src/database/migrations/1795620000000-PartitionedEvents';
import { ApplicationsService } from '../src/modules/applications/applications.service';
import { EventsService } from '../src/modules/events/events.service';
import { ApiKeysService } from '../src/modules/keys/api-keys.service';
import { partitionOf } from '../src/modules/maintenance/event-partitions';
import { benchDatabaseUrl, recreateDatabase } from './bench-database';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000_000);
const INSERTS = Number(process.env.BENCH_INSERTS ?? 50_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const WARMUP = 10;
const APPS = 10;
const FILL_CHUNK = 1_000_000;

interface Layout {
  name: 'unpartitioned' | 'partitioned';
  database: string;
  migrations: typeof MIGRATIONS;
}

const PARTITIONED_AT = MIGRATIONS.indexOf(PartitionedEvents1795620000000);
const LAYOUTS: Layout[] = [
  {
    name: 'unpartitioned',
    database: 'idsvc_events_bench_flat',
    migrations: MIGRATIONS.slice(0, PARTITIONED_AT),
  },
  { name: 'partitioned', database: 'idsvc_events_bench_part', migrations: MIGRATIONS },
];

interface Timing {
  p50: number;
  p95: number;
}

type Results = Map<string, number | Timing>;

const now = new Date();
const current = partitionOf(now);
const previous = partitionOf(new Date(current.from.getTime() - 1));

async function migrate(url: string, migrations: typeof MIGRATIONS): Promise<void> {
  const ds = new DataSource({ ...dataSourceOptions({ url }), migrations, logging: false });
  await ds.initialize();
  await ds.runMigrations({ transaction: 'each' });
  await ds.destroy();
}

async function boot(url: string): Promise<INestApplication> {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: url,
    MIGRATIONS_RUN: 'false',
    LOG_LEVEL: 'silent',
    DATABASE_QUERY_TIMEOUT_MS: '3600000',
    RATE_LIMIT_ENABLED: 'false',
    PURGE_INTERVAL_SECONDS: '0',
    WEBHOOKS_POLL_MS: '0',
    PUBLIC_BASE_URL: 'http://127.0.0.1:3000',
  });
  const app = await NestFactory.create(AppModule.forRoot(config), { logger: false });
  configureApp(app);
  await app.listen(0, '127.0.0.1');
  return app;
}

async function createApps(app: INestApplication): Promise<number[]> {
  const apps: number[] = [];
  for (let i = 1; i <= APPS; i += 1) {
    const { application } = await app.get(ApplicationsService).create({
      name: `Bench ${i}`,
      redirectUris: ['https://bench.example/cb'],
      authMethod: 'secret',
    });
    apps.push(application.id);
  }
  return apps;
}

/**
 * `count` events evenly over [from, to), applications in turn, one in four an authorization.
 * session_replication_role = replica turns the id trigger (and the foreign key check) off, so the
 * ids are drawn here, from the same sequence, in time order as the trigger would.
 */
async function fill(ds: DataSource, apps: number[], count: number, from: Date, to: Date) {
  const step = (to.getTime() - from.getTime()) / count;
  await ds.transaction(async (manager) => {
    await manager.query('SET LOCAL session_replication_role = replica');
    for (let start = 0; start < count; start += FILL_CHUNK) {
      await manager.query(
        `INSERT INTO events (id, application_id, event_type, user_id, scope, description, created_at)
         SELECT nextval('events_id_seq'), ($1::int[])[1 + g % ${APPS}],
                CASE WHEN g % 4 = 0 THEN 'authorization_granted' ELSE 'token_issued' END,
                g % 100000, 'openid email', '',
                to_timestamp(floor($2::float8 + g * $3::float8) / 1000)
           FROM generate_series($4::bigint, $5::bigint) AS g`,
        [apps, from.getTime(), step, start, Math.min(count, start + FILL_CHUNK) - 1],
      );
    }
  });
}

async function insertRate(app: INestApplication, apps: number[]): Promise<number> {
  const events = app.get(EventsService);
  const ds = app.get(DataSource);
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < INSERTS) {
        const i = next++;
        await events.record(ds.manager, {
          applicationId: apps[i % APPS],
          eventType: 'token_issued',
          userId: String(i),
        });
      }
    }),
  );
  return INSERTS / (Number(process.hrtime.bigint() - started) / 1e9);
}

async function get(base: string, key: string, path: string): Promise<unknown> {
  const res = await fetch(base + path, { headers: { Authorization: `Bearer ${key}` } });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** p50/p95 of RUNS requests after WARMUP; `path(i)` may follow a cursor. */
async function time(base: string, key: string, path: (i: number) => string): Promise<Timing> {
  const samples: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i += 1) {
    const started = process.hrtime.bigint();
    await get(base, key, path(i));
    if (i >= WARMUP) samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
  return { p50: at(0.5), p95: at(0.95) };
}

async function latencies(app: INestApplication, key: string, results: Results): Promise<void> {
  const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const ds = app.get(DataSource);
  const [{ first, last }] = await ds.query<{ first: string; last: string }[]>(
    `SELECT min(id)::text AS first, max(id)::text AS last FROM events`,
  );
  // A poller catching up through the previous month: each page starts after the last one.
  let cursor = first;
  results.set(
    'GET /events?after= (200, catching up)',
    await time(base, key, () => {
      const path = `/api/v1/app/events?after=${cursor}&limit=200`;
      cursor = String(Number(cursor) + 200 * APPS);
      return path;
    }),
  );
  results.set(
    'GET /events?after=<head> (empty poll)',
    await time(base, key, () => `/api/v1/app/events?after=${last}&limit=200`),
  );
  results.set('GET /events (newest 50)', await time(base, key, () => '/api/v1/app/events'));
  results.set(
    'GET /events?before= (50, mid previous month)',
    await time(base, key, () => {
      const mid = new Date((previous.from.getTime() + previous.to.getTime()) / 2);
      return `/api/v1/app/events?before=${mid.toISOString()}`;
    }),
  );
  results.set('GET /stats', await time(base, key, () => '/api/v1/app/stats'));
}

/** Removes the previous month: DROP of its partition, or DELETE of its rows. */
async function removeMonth(ds: DataSource, layout: Layout, results: Results): Promise<void> {
  const [{ n }] = await ds.query<{ n: string }[]>(
    'SELECT count(*)::text AS n FROM events WHERE created_at >= $1 AND created_at < $2',
    [previous.from, previous.to],
  );
  results.set('rows removed', Number(n));
  const started = process.hrtime.bigint();
  if (layout.name === 'partitioned') await ds.query(`DROP TABLE ${previous.name}`);
  else
    await ds.query('DELETE FROM events WHERE created_at >= $1 AND created_at < $2', [
      previous.from,
      previous.to,
    ]);
  results.set('remove a month (ms)', Number(process.hrtime.bigint() - started) / 1e6);
}

const seconds = (since: bigint): number => Number(process.hrtime.bigint() - since) / 1e9;

async function run(layout: Layout): Promise<Results> {
  const results: Results = new Map();
  const url = benchDatabaseUrl(undefined, layout.database);
  await recreateDatabase(url);
  await migrate(url, layout.migrations);
  const app = await boot(url);
  const ds = app.get(DataSource);
  try {
    if (layout.name === 'partitioned') {
      await ds.query(
        `CREATE TABLE ${previous.name} PARTITION OF events
           FOR VALUES FROM ('${previous.from.toISOString()}') TO ('${previous.to.toISOString()}')`,
      );
    }
    const apps = await createApps(app);
    const { plaintext: key } = await app
      .get(ApiKeysService)
      .create(apps[0], 'bench', ['user:read', 'stats:read']);
    let started = process.hrtime.bigint();
    await fill(ds, apps, EVENTS, previous.from, previous.to);
    await fill(ds, apps, Math.round(EVENTS / 10), current.from, now);
    results.set('bulk fill (s)', seconds(started));
    started = process.hrtime.bigint();
    await ds.query('VACUUM ANALYZE events');
    results.set('VACUUM ANALYZE (s)', seconds(started));
    process.stdout.write(`${layout.name}: filled in ${results.get('bulk fill (s)') as number} s\n`);
    results.set('inserts/s (EventsService.record)', await insertRate(app, apps));
    await latencies(app, key, results);
    await removeMonth(ds, layout, results);
  } finally {
    await app.close();
  }
  return results;
}

function print(flat: Results, part: Results): void {
  const cell = (v: number | Timing | undefined) =>
    typeof v === 'number' ? v.toFixed(1) : v ? `${v.p50.toFixed(2)} / ${v.p95.toFixed(2)}` : '';
  const ratio = (a: number | Timing | undefined, b: number | Timing | undefined) => {
    const x = typeof a === 'number' ? a : a?.p50;
    const y = typeof b === 'number' ? b : b?.p50;
    return x && y ? (y / x).toFixed(2) : '';
  };
  process.stdout.write(
    `\n| measure (HTTP: p50 / p95 ms) | unpartitioned | partitioned | partitioned ÷ unpartitioned |\n|---|---:|---:|---:|\n`,
  );
  for (const [name, value] of part) {
    const old = flat.get(name);
    process.stdout.write(`| ${name} | ${cell(old)} | ${cell(value)} | ${ratio(old, value)} |\n`);
  }
  process.stdout.write(
    `\n${EVENTS} events in ${previous.name.slice(8)} + ${Math.round(EVENTS / 10)} in ${current.name.slice(8)}, ${APPS} applications; ` +
      `${INSERTS} inserts at concurrency ${CONCURRENCY}; ${RUNS} requests per row after ${WARMUP} warm-up\n`,
  );
}

async function main(): Promise<void> {
  if (PARTITIONED_AT < 0) throw new Error('migration PartitionedEvents is not registered');
  const [flat, part] = [await run(LAYOUTS[0]), await run(LAYOUTS[1])];
  print(flat, part);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
