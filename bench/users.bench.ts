/**
 * GET /users at 100 k and 1 M relations (docs/performance/users.md).
 * Seeds 10 applications × 100 000 users into a dedicated PostgreSQL database, boots the whole
 * app in-process on a real HTTP port and times the queries against application 1: first with
 * only application 1 seeded (100 k relations), then with all ten (1 M).
 *
 *   npm run bench:users            (BENCH_DATABASE_URL, or DATABASE_URL's server with db idsvc_bench)
 *   BENCH_USERS_PER_APP=20000 npm run bench:users     (a quicker, smaller run)
 *   BENCH_USERS_REUSE=1 npm run bench:users     (keeps a database a previous run seeded in full
 *     and measures only its 1 M round: no re-seeding while iterating; migrations still run)
 */
import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { AppModule } from '../src/app.module';
import { configureApp } from '../src/app.setup';
import { loadConfig } from '../src/config/app-config';
import { ApplicationsService } from '../src/modules/applications/applications.service';
import { ApiKeysService } from '../src/modules/keys/api-keys.service';
import { SeedService } from '../src/modules/users/seed.service';
import { benchDatabaseUrl, databaseExists, recreateDatabase } from './bench-database';

const APPS = 10;
const PER_APP = Number(process.env.BENCH_USERS_PER_APP ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WARMUP = 20;

interface Query {
  name: string;
  path: string;
}

function queries(pageSize: number): Query[] {
  const deep = Math.min(1000, Math.floor(PER_APP / pageSize));
  return [
    { name: 'first page', path: '/api/v1/app/users' },
    { name: `page ${deep}`, path: `/api/v1/app/users?page=${deep}` },
    // Seeded data (docs/seed.md) of application 1: a full name (4 users), a user number (1),
    // digits in 280 user numbers, a popular surname (1.4 %), a domain of 25 % of the emails.
    { name: 'keyword rare ("wanda.sahin")', path: '/api/v1/app/users?keyword=wanda.sahin' },
    { name: 'keyword rare ("54321")', path: '/api/v1/app/users?keyword=54321' },
    { name: 'keyword medium ("777")', path: '/api/v1/app/users?keyword=777' },
    { name: 'keyword common ("smith")', path: '/api/v1/app/users?keyword=smith' },
    {
      name: 'keyword very common ("example.org")',
      path: '/api/v1/app/users?keyword=example.org',
    },
    { name: 'group=t3', path: '/api/v1/app/users?group=t3' },
    { name: 'enabled=false', path: '/api/v1/app/users?enabled=false' },
    {
      name: `group=t3 page ${Math.floor(deep / 8)}`,
      path: `/api/v1/app/users?group=t3&page=${Math.floor(deep / 8)}`,
    },
  ];
}

interface Timing {
  p50: number;
  p95: number;
  total: number;
}

async function time(base: string, key: string, path: string): Promise<Timing> {
  const samples: number[] = [];
  let total = 0;
  for (let i = 0; i < WARMUP + RUNS; i += 1) {
    const started = process.hrtime.bigint();
    const res = await fetch(base + path, { headers: { Authorization: `Bearer ${key}` } });
    const body = (await res.json()) as { total?: number };
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
    total = body.total ?? 0;
    if (i >= WARMUP) samples.push(ms);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
  return { p50: at(0.5), p95: at(0.95), total };
}

async function seedApps(app: INestApplication, ids: number[]): Promise<number> {
  const started = Date.now();
  const seeder = app.get(SeedService);
  for (const id of ids) await seeder.seed(id, PER_APP, 60);
  const ds = app.get(DataSource);
  // Index-only scans need a fresh visibility map; a production table gets it from autovacuum.
  await ds.query('VACUUM ANALYZE users, user_emails, app_users, events');
  return Date.now() - started;
}

async function measure(base: string, key: string): Promise<Map<string, Timing>> {
  const results = new Map<string, Timing>();
  for (const q of queries(20)) results.set(q.name, await time(base, key, q.path));
  return results;
}

const fmt = (ms: number): string => ms.toFixed(2).padStart(8);

/** Application ids of a previous full run (`Bench 1`…`Bench 10`, each seeded), or undefined. */
async function seededApps(app: INestApplication): Promise<number[] | undefined> {
  const rows = await app.get(DataSource).query<{ id: number; relations: string }[]>(
    `SELECT a.id, (SELECT count(*) FROM app_users au WHERE au.application_id = a.id) AS relations
       FROM applications a WHERE a.name LIKE 'Bench %' ORDER BY a.id`,
  );
  const full = rows.filter((r) => Number(r.relations) === PER_APP).map((r) => r.id);
  return full.length === APPS ? full : undefined;
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

function printTable(
  small: Map<string, Timing> | undefined,
  large: Map<string, Timing>,
  seededMs: number | undefined,
): void {
  const smallLabel = `${PER_APP / 1000}k`;
  const largeLabel = `${(PER_APP * APPS) / 1000}k`;
  process.stdout.write(
    `\n| query | matches | p50 ${smallLabel} | p95 ${smallLabel} | p50 ${largeLabel} | p95 ${largeLabel} | p50 ratio |\n|---|---:|---:|---:|---:|---:|---:|\n`,
  );
  const none = { p50: NaN, p95: NaN, total: 0 };
  for (const [name, l] of large) {
    const s = small?.get(name) ?? none;
    process.stdout.write(
      `| ${name} | ${l.total} | ${fmt(s.p50)} | ${fmt(s.p95)} | ${fmt(l.p50)} | ${fmt(l.p95)} | ${(l.p50 / s.p50).toFixed(2)} |\n`,
    );
  }
  const [first, deep] = [...large.values()];
  const seeding =
    seededMs === undefined
      ? 'reused seeded database'
      : `seeding ${PER_APP * APPS} relations: ${(seededMs / 1000).toFixed(1)} s in total`;
  process.stdout.write(
    `\ndeep page / first page (p50, ${largeLabel}): ${(deep.p50 / first.p50).toFixed(2)}\n` +
      `${seeding} (times in ms, ${RUNS} runs after ${WARMUP} warm-up, sequential HTTP)\n`,
  );
}

async function main(): Promise<void> {
  const url = benchDatabaseUrl(process.env.BENCH_DATABASE_URL, 'idsvc_bench');
  const reuse = process.env.BENCH_USERS_REUSE === '1' && (await databaseExists(url));
  if (!reuse) await recreateDatabase(url);
  const config = loadConfig({
    NODE_ENV: 'test',
    DATABASE_URL: url,
    LOG_LEVEL: 'silent',
    // A 50,000-user seed batch can outlast the default 60 s on a busy machine.
    DATABASE_QUERY_TIMEOUT_MS: '900000',
    RATE_LIMIT_ENABLED: 'false',
    RATE_LIMIT_PER_MINUTE: '100000000',
    PUBLIC_BASE_URL: 'http://127.0.0.1:3000',
  });
  const app = await NestFactory.create(AppModule.forRoot(config), { logger: false });
  configureApp(app);
  await app.listen(0, '127.0.0.1');
  const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const kept = reuse ? await seededApps(app) : undefined;
  if (reuse && !kept)
    throw new Error(`${url} is not a fully seeded bench database; run without BENCH_USERS_REUSE`);
  const apps = kept ?? (await createApps(app));
  const { plaintext: key } = await app.get(ApiKeysService).create(apps[0], 'bench', ['user:read']);
  if (kept) {
    process.stdout.write(`reusing ${url}: ${APPS} applications × ${PER_APP} relations\n`);
    printTable(undefined, await measure(base, key), undefined);
    await app.close();
    return;
  }
  const seedSmall = await seedApps(app, apps.slice(0, 1));
  process.stdout.write(`seeded ${PER_APP} relations in ${(seedSmall / 1000).toFixed(1)} s\n`);
  const small = await measure(base, key);
  const seedLarge = await seedApps(app, apps.slice(1));
  process.stdout.write(
    `seeded ${PER_APP * (APPS - 1)} more in ${(seedLarge / 1000).toFixed(1)} s\n`,
  );
  printTable(small, await measure(base, key), seedSmall + seedLarge);
  await app.close();
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
