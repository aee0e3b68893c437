/**
 * Webhook delivery (docs/performance/webhooks.md): events delivered per second to a fast receiver
 * on loopback with 1, 10 and 100 endpoints, from a committed backlog and while events are being
 * produced, with the delay from an event's commit to its arrival; then the cost of delivery on
 * the token endpoint (code → token exchange with 10 endpoints delivering ÷ with none, rounds
 * alternating, median of per-round ratios).
 *
 *   npm run bench:webhooks      (builds first; DATABASE_URL's server, REDIS_URL when set)
 *   BENCH_WEBHOOKS_DATABASE_URL (else database idsvc_webhooks_bench on DATABASE_URL's server,
 *     re-created each run)   BENCH_BACKLOG=300 (events per application)   BENCH_DRAIN_S=30
 *   BENCH_LIVE_RATE=100 (events/s, all applications together)   BENCH_LIVE_S=10
 *   BENCH_ROUNDS=6 (pairs)   BENCH_EXCHANGES=2000 (per round)   BENCH_CONCURRENCY=16
 *   BENCH_VERIFY_EVERY=20 (the receiver verifies the first request of each endpoint and every
 *     20th)   BENCH_PARTS=delivery,token   BENCH_POLL_MS (WEBHOOKS_POLL_MS of the service)
 *   BENCH_BASELINE_ROOT=<dir>: another built checkout (e.g. `git archive` of the commit before a
 *     change, `npm run build` there) measured in the same run: each configuration on one build
 *     then the other (the order alternating), then the token rounds of each build
 *
 * Processes: the built service (`node dist/main.js`, NODE_ENV=production,
 * WEBHOOKS_ALLOW_INSECURE=true so it may post to loopback), the receiver
 * (bench/webhooks-receiver.ts) and this one, which prepares the database through the service's
 * own modules (AppModule in this process, its delivery off), makes endpoints with
 * WebhookEndpointsService.create (so cursors start at the commit horizon and secrets are sealed
 * as in production), writes events with the SQL of the service's one event INSERT
 * (insertEventSql), and drives the token endpoint with the oauth harness's autocannon loader.
 */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { basename, join } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { AppModule } from '../src/app.module';
import { loadConfig } from '../src/config/app-config';
import { ApplicationsService } from '../src/modules/applications/applications.service';
import { insertEventSql } from '../src/modules/events/event-sql';
import { UsersService } from '../src/modules/users/users.service';
import { WebhookEndpointsService } from '../src/modules/webhooks/webhook-endpoints.service';
import { benchDatabaseUrl, recreateDatabase } from './bench-database';
import { Child, forkScript, spawnServer } from './oauth/child';
import { processCpuUs } from './oauth/cpu';
import { runLoad } from './oauth/generator';
import { CHALLENGE, oauthPhases, REDIRECT_URI } from './oauth/target';
import type { Arrivals, ReceiverRequest } from './webhooks-receiver';

const env = process.env;
const BACKLOG = Number(env.BENCH_BACKLOG ?? 300);
const DRAIN_MS = Number(env.BENCH_DRAIN_S ?? 30) * 1000;
const LIVE_RATE = Number(env.BENCH_LIVE_RATE ?? 100);
const LIVE_MS = Number(env.BENCH_LIVE_S ?? 10) * 1000;
const ROUNDS = Number(env.BENCH_ROUNDS ?? 6);
const EXCHANGES = Number(env.BENCH_EXCHANGES ?? 2000);
const CONCURRENCY = Number(env.BENCH_CONCURRENCY ?? 16);
const PARTS = (env.BENCH_PARTS ?? 'delivery,token').split(',');
const DATABASE_URL = benchDatabaseUrl(env.BENCH_WEBHOOKS_DATABASE_URL, 'idsvc_webhooks_bench');
const ROOT = join(__dirname, '..');
// Fixed, so the service and this process seal and open the same endpoint secrets.
const SIGNING_KEYS_SECRET = 'bench-only-signing-keys-secret-not-for-deployments';
const USERS = 100;
/** Applications of the delivery part; each has up to 10 endpoints (the service's limit). */
const APPLICATIONS = 10;

/** 1 endpoint of 1 application, 10 of 1 application, 10 of each of 10 applications. */
const CONFIGURATIONS = [
  { applications: 1, perApplication: 1 },
  { applications: 1, perApplication: 10 },
  { applications: 10, perApplication: 10 },
];

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const percentile = (values: number[], p: number): number => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class Receiver {
  constructor(
    private readonly child: Child,
    readonly url: string,
  ) {}

  static async start(): Promise<Receiver> {
    const { child, ready } = await forkScript<{ url: string }>(
      'receiver',
      join(__dirname, 'webhooks-receiver.ts'),
      process.execPath,
      {},
    );
    return new Receiver(child, ready.url);
  }

  call<T>(request: ReceiverRequest): Promise<T> {
    return this.child.call<T>(request);
  }

  /** Waits until `expected` requests arrived since the last take, or the drain limit passed. */
  async until(expected: number, since: number): Promise<number> {
    for (;;) {
      const count = await this.call<number>({ op: 'count' });
      if (count >= expected || Date.now() - since > DRAIN_MS) return count;
      await sleep(50);
    }
  }

  /** What arrived since the last take; a signature that did not verify aborts the benchmark. */
  async take(): Promise<Arrivals> {
    const arrivals = await this.call<Arrivals>({ op: 'take' });
    if (arrivals.rejected.length > 0) {
      throw new Error(`receiver rejected ${arrivals.rejected.length}: ${arrivals.rejected[0]}`);
    }
    return arrivals;
  }

  stop(): Promise<void> {
    return this.child.stop();
  }
}

interface Fixture {
  app: INestApplication;
  db: Client;
  /** The applications of the delivery part. */
  applicationIds: number[];
  /** The public client of the token part, its id and its users. */
  token: { applicationId: number; clientId: string; userIds: string[] };
}

/** The database, through the service's modules (delivery off in this process). */
async function prepare(): Promise<Fixture> {
  await recreateDatabase(DATABASE_URL);
  execFileSync(process.execPath, ['dist/cli/main.js', 'migrate'], {
    cwd: ROOT,
    env: { ...env, DATABASE_URL, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL,
    SIGNING_KEYS_SECRET,
    WEBHOOKS_ALLOW_INSECURE: 'true',
    WEBHOOKS_POLL_MS: '0',
  });
  const app = await NestFactory.create(AppModule.forRoot(config), { logger: false });
  await app.init();
  const apps = app.get(ApplicationsService);
  const applicationIds: number[] = [];
  for (let i = 0; i < APPLICATIONS; i += 1) {
    const { application } = await apps.create({
      name: `Webhooks ${i}`,
      redirectUris: [REDIRECT_URI],
      authMethod: 'none',
    });
    applicationIds.push(application.id);
  }
  const { application } = await apps.create({
    name: 'Token endpoint',
    redirectUris: [REDIRECT_URI],
    authMethod: 'none',
  });
  const users = app.get(UsersService);
  const userIds: string[] = [];
  for (let i = 0; i < USERS; i += 1) {
    userIds.push(
      (await users.create({ username: `bench${i}`, email: `bench${i}@example.org` })).id,
    );
  }
  await app.get(DataSource).query(
    `INSERT INTO app_users (application_id, user_id, granted_scope, auth_count)
       SELECT $1, u, 'read', 1 FROM unnest($2::bigint[]) AS u`,
    [application.id, userIds],
  );
  const db = new Client({ connectionString: DATABASE_URL });
  await db.connect();
  return {
    app,
    db,
    applicationIds,
    token: { applicationId: application.id, clientId: application.clientId, userIds },
  };
}

/** `perApplication` endpoints on each application, made by the service, trusted by the receiver. */
async function addEndpoints(
  fixture: Fixture,
  receiver: Receiver,
  applicationIds: number[],
  perApplication: number,
): Promise<number> {
  const service = fixture.app.get(WebhookEndpointsService);
  const secrets: [string, string][] = [];
  for (const applicationId of applicationIds) {
    for (let i = 0; i < perApplication; i += 1) {
      const path = `/hooks/${randomUUID()}`;
      const { secret } = await service.create({
        applicationId,
        url: `${receiver.url}${path}`,
        eventTypes: [],
      });
      secrets.push([path, secret]);
    }
  }
  await receiver.call({ op: 'trust', secrets });
  return secrets.length;
}

/** Disables every endpoint, waits for the leases of a round in progress to go, then deletes them. */
async function removeEndpoints(db: Client): Promise<void> {
  await db.query('UPDATE webhook_endpoints SET enabled = false');
  for (;;) {
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM webhook_endpoints WHERE lease_owner IS NOT NULL',
    );
    if (rows[0].n === 0) break;
    await sleep(50);
  }
  await db.query('DELETE FROM webhook_endpoints');
}

/** The service's event INSERT (insertEventSql), one event per element of $1 (application ids). */
const INSERT_EVENTS = insertEventSql(
  {
    applicationId: 'a',
    eventType: "'token_issued'",
    userId: 'NULL',
    scope: "'read'",
    description: "''",
    createdAt: 'clock_timestamp()',
  },
  'FROM unnest($1::int[]) AS a',
);

/** The applications of `n` events, in turn, the first of them the `from`-th event of the phase. */
function eventsOf(applicationIds: number[], n: number, from = 0): number[] {
  return Array.from({ length: n }, (_, i) => applicationIds[(from + i) % applicationIds.length]);
}

interface DeliveryFigures {
  label: string;
  expected: number;
  delivered: number;
  /** Deliveries per second from the commit (backlog) or the first event (live) to the last. */
  rate: number;
  /** Deliveries per second between the first and the last arrival. */
  steadyRate: number;
  firstMs: number;
  lag: { p50: number; p95: number; max: number };
  /** Endpoints that received at least one delivery. */
  reached: number;
  endpoints: number;
  verified: number;
  notAscending: number;
}

function figures(
  label: string,
  endpoints: number,
  expected: number,
  start: number,
  arrivals: Arrivals,
): DeliveryFigures {
  const delivered = arrivals.at.length;
  const first = arrivals.at.reduce((a, b) => Math.min(a, b), Infinity);
  const last = arrivals.at.reduce((a, b) => Math.max(a, b), -Infinity);
  return {
    label,
    expected,
    delivered,
    rate: delivered / ((last - start) / 1000),
    steadyRate: delivered > 1 ? (delivered - 1) / ((last - first) / 1000) : NaN,
    firstMs: first - start,
    lag: {
      p50: percentile(arrivals.lagMs, 50),
      p95: percentile(arrivals.lagMs, 95),
      max: arrivals.lagMs.reduce((a, b) => Math.max(a, b), -Infinity),
    },
    reached: arrivals.endpoints,
    endpoints,
    verified: arrivals.verified,
    notAscending: arrivals.notAscending,
  };
}

/** A backlog of BACKLOG events per application, committed in one statement, then drained. */
async function backlog(
  fixture: Fixture,
  receiver: Receiver,
  applicationIds: number[],
  endpoints: number,
  perApplication: number,
): Promise<DeliveryFigures> {
  const events = eventsOf(applicationIds, BACKLOG * applicationIds.length);
  const expected = events.length * perApplication;
  await fixture.db.query(INSERT_EVENTS, [events]);
  const start = Date.now();
  await receiver.until(expected, start);
  return figures(
    `${endpoints} endpoint(s), backlog`,
    endpoints,
    expected,
    start,
    await receiver.take(),
  );
}

/** LIVE_RATE events/s for LIVE_MS (spread over the applications), then drained. */
async function live(
  fixture: Fixture,
  receiver: Receiver,
  applicationIds: number[],
  endpoints: number,
  perApplication: number,
): Promise<DeliveryFigures> {
  const start = Date.now();
  let produced = 0;
  while (Date.now() - start < LIVE_MS) {
    const due = Math.floor(((Date.now() - start) / 1000) * LIVE_RATE) - produced;
    if (due > 0) {
      await fixture.db.query(INSERT_EVENTS, [eventsOf(applicationIds, due, produced)]);
      produced += due;
    }
    await sleep(10);
  }
  const expected = produced * perApplication;
  await receiver.until(expected, start + LIVE_MS);
  return figures(
    `${endpoints} endpoint(s), live ${LIVE_RATE}/s`,
    endpoints,
    expected,
    start,
    await receiver.take(),
  );
}

/** A build of the service: this tree's, or another checkout's (BENCH_BASELINE_ROOT). */
interface Build {
  name: string;
  root: string;
}

interface Service {
  child: Child;
  tokenUrl: string;
}

/** The build's `node dist/main.js` on the benchmark database, delivering (WEBHOOKS_POLL_MS). */
async function startService(build: Build): Promise<Service> {
  const { child, port } = await spawnServer(
    build.name,
    process.execPath,
    [join(build.root, 'dist/main.js')],
    {
      PATH: env.PATH ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      PUBLIC_BASE_URL: 'https://bench.example',
      SESSION_SECRET: randomBytes(32).toString('hex'),
      SIGNING_KEYS_SECRET,
      DATABASE_URL,
      ...(env.REDIS_URL ? { REDIS_URL: env.REDIS_URL } : {}),
      LOG_LEVEL: env.BENCH_LOG_LEVEL ?? 'info',
      RATE_LIMIT_PER_MINUTE: '1000000000',
      RATE_LIMIT_KEY_PREFIX: `idsvc-bench:${randomUUID()}:`,
      PURGE_INTERVAL_SECONDS: '0',
      SHUTDOWN_DRAIN_DELAY_MS: '0',
      WEBHOOKS_ALLOW_INSECURE: 'true',
      ...(env.BENCH_POLL_MS ? { WEBHOOKS_POLL_MS: env.BENCH_POLL_MS } : {}),
    },
  );
  return { child, tokenUrl: `http://127.0.0.1:${port}/api/oauth2/token` };
}

/** Each configuration on each build in turn (the builds' order alternating), one service at a time. */
async function deliveryPart(
  fixture: Fixture,
  receiver: Receiver,
  builds: Build[],
): Promise<DeliveryFigures[]> {
  const results: DeliveryFigures[] = [];
  for (const [n, { applications, perApplication }] of CONFIGURATIONS.entries()) {
    const applicationIds = fixture.applicationIds.slice(0, applications);
    for (const build of n % 2 === 0 ? builds : [...builds].reverse()) {
      const service = await startService(build);
      try {
        // Fresh endpoints for each phase: what a phase left undelivered does not reach the next.
        for (const phase of [backlog, live]) {
          const endpoints = await addEndpoints(fixture, receiver, applicationIds, perApplication);
          const result = await phase(fixture, receiver, applicationIds, endpoints, perApplication);
          result.label = `${build.name}: ${result.label}`;
          results.push(result);
          process.stderr.write(`${describe(result)}\n`);
          await removeEndpoints(fixture.db);
          await receiver.take();
        }
      } finally {
        await service.child.stop();
      }
    }
  }
  return results;
}

function describe(f: DeliveryFigures): string {
  const done = f.delivered >= f.expected ? 'all' : `ONLY ${f.delivered} of ${f.expected}`;
  return (
    `${f.label.padEnd(30)} ${String(f.expected).padStart(6)} deliveries (${done}): ` +
    `${f.rate.toFixed(0)}/s (first to last arrival ${f.steadyRate.toFixed(0)}/s), ` +
    `${f.reached}/${f.endpoints} endpoints reached, first after ${f.firstMs} ms, lag p50 ${f.lag.p50} ms p95 ${f.lag.p95} ms max ${f.lag.max} ms; ` +
    `${f.verified} signatures verified, ${f.notAscending} not ascending`
  );
}

interface TokenRound {
  withHooks: boolean;
  rps: number;
  cpuUsPerOp: number;
  /** Deliveries that arrived while the round ran ÷ the round's events × 10. */
  deliveredShare: number;
}

/** One round of EXCHANGES code → token exchanges, with the 10 endpoints delivering or none. */
async function tokenRound(
  fixture: Fixture,
  receiver: Receiver,
  service: Service,
  withHooks: boolean,
): Promise<TokenRound> {
  const tokenUrl = service.tokenUrl;
  const { applicationId, clientId, userIds } = fixture.token;
  const perApplication = 10;
  if (withHooks) await addEndpoints(fixture, receiver, [applicationId], perApplication);
  const makeCodes = async (n: number): Promise<string[]> => {
    const codes = Array.from({ length: n }, () => randomBytes(32).toString('base64url'));
    const hashes = codes.map((code) => createHash('sha256').update(code).digest('hex'));
    const users = codes.map((_, i) => userIds[i % userIds.length]);
    await fixture.db.query(
      `INSERT INTO oauth_codes (code_hash, application_id, user_id, redirect_uri, code_challenge, scope, expires_at)
       SELECT h, $3, u, $4, $5, 'read', now() + interval '10 minutes'
         FROM unnest($1::text[], $2::bigint[]) AS c(h, u)`,
      [hashes, users, applicationId, REDIRECT_URI, CHALLENGE],
    );
    return codes;
  };
  const unused = (): Promise<string[]> => Promise.reject(new Error('not used'));
  const phases = oauthPhases({
    tokenUrl,
    userinfoUrl: '',
    introspectionUrl: null,
    clientId,
    introspectionAuth: '',
    userinfoExpect: '',
    makeCodes,
    accessTokens: unused,
    introspectionTokens: unused,
  });
  const load = await phases.prepare('exchange', EXCHANGES);
  await receiver.take();
  const before = processCpuUs(service.child.pid)!;
  const result = await runLoad({ ...load, collect: false, connections: CONCURRENCY });
  const cpu = processCpuUs(service.child.pid)! - before;
  if (result.failures > 0)
    throw new Error(`token: ${result.failures} failed: ${result.firstFailure}`);
  const arrivals = await receiver.take();
  if (withHooks) await removeEndpoints(fixture.db);
  await receiver.take();
  return {
    withHooks,
    rps: result.completed / result.seconds,
    cpuUsPerOp: cpu / result.completed,
    deliveredShare: arrivals.at.length / (EXCHANGES * perApplication),
  };
}

async function tokenPart(fixture: Fixture, receiver: Receiver, build: Build): Promise<string[]> {
  const service = await startService(build);
  try {
    return await tokenRounds(fixture, receiver, service, build);
  } finally {
    await service.child.stop();
  }
}

async function tokenRounds(
  fixture: Fixture,
  receiver: Receiver,
  service: Service,
  build: Build,
): Promise<string[]> {
  // Warm-up: JIT, pools, the statements.
  await tokenRound(fixture, receiver, service, true);
  await tokenRound(fixture, receiver, service, false);
  const pairs: { with: TokenRound; none: TokenRound }[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    // ABBA: a slow drift of the machine's load weighs on both alike.
    const order = round % 2 === 0 ? [true, false] : [false, true];
    const pair: Partial<{ with: TokenRound; none: TokenRound }> = {};
    for (const withHooks of order) {
      const r = await tokenRound(fixture, receiver, service, withHooks);
      pair[withHooks ? 'with' : 'none'] = r;
    }
    pairs.push(pair as { with: TokenRound; none: TokenRound });
  }
  const ratios = pairs.map((p) => p.with.rps / p.none.rps);
  const line = (name: string, rounds: TokenRound[]): string =>
    `${name.padEnd(24)}: ${median(rounds.map((r) => r.rps)).toFixed(0)} exchanges/s, ` +
    `${median(rounds.map((r) => r.cpuUsPerOp)).toFixed(0)} µs service CPU/exchange   rounds ` +
    rounds.map((r) => r.rps.toFixed(0)).join(' / ');
  const withRounds = pairs.map((p) => p.with);
  return [
    `${build.name}: token endpoint (code → token exchange), ${EXCHANGES} per round, ${CONCURRENCY} connections, ` +
      `${ROUNDS} round pairs (ABBA, medians)`,
    line('10 endpoints delivering', withRounds),
    line(
      'no endpoint',
      pairs.map((p) => p.none),
    ),
    `ratio with 10 ÷ none: ${median(ratios).toFixed(3)} (per round ${ratios.map((r) => r.toFixed(2)).join(' / ')})`,
    `deliveries arrived during the round (share of the round's events × 10): median ` +
      `${(median(withRounds.map((r) => r.deliveredShare)) * 100).toFixed(0)} % (per round ` +
      `${withRounds.map((r) => `${(r.deliveredShare * 100).toFixed(0)} %`).join(' / ')})`,
  ];
}

async function main(): Promise<void> {
  const fixture = await prepare();
  const receiver = await Receiver.start();
  const builds: Build[] = [{ name: 'this tree', root: ROOT }];
  // Another checkout's build (`npm run build` there), e.g. the commit before a change.
  const baseline = env.BENCH_BASELINE_ROOT;
  if (baseline) builds.unshift({ name: `baseline ${basename(baseline)}`, root: baseline });
  const load = loadavg();
  const lines: string[] = [];
  try {
    if (PARTS.includes('delivery')) {
      const results = await deliveryPart(fixture, receiver, builds);
      lines.push(
        `Delivery to one receiver on loopback (204 at once): backlog ${BACKLOG} events per ` +
          `application committed at once; live ${LIVE_RATE} events/s over the applications for ` +
          `${LIVE_MS / 1000} s; lag = arrival − event createdAt`,
        ...results.map(describe),
      );
    }
    if (PARTS.includes('token')) {
      for (const build of builds) lines.push(...(await tokenPart(fixture, receiver, build)));
    }
    const after = loadavg();
    lines.unshift(
      `node ${process.version}; load average before ${load.map((l) => l.toFixed(2)).join(' ')}, ` +
        `after ${after.map((l) => l.toFixed(2)).join(' ')}`,
    );
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await receiver.stop();
    await fixture.db.end();
    await fixture.app.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
