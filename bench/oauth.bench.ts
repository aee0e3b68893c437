/**
 * Code→token exchanges per second and refreshes per second: this service on PostgreSQL versus
 * panva's oidc-provider (opaque tokens, its in-memory adapter), same machine, same process, same
 * load generator, same concurrency. Both are started and warmed up first, then measured in
 * alternating rounds (ABBA) so that a changing load on the machine weighs on both alike; the
 * medians and the median of the per-round ratios are printed (docs/performance-oauth.md).
 *
 *   npm run bench:oauth        (BENCH_OAUTH_DATABASE_URL, or DATABASE_URL's server with db idsvc_oauth_bench)
 *   BENCH_OPS=3000 BENCH_ROUNDS=4 BENCH_CONCURRENCY=16 BENCH_WARMUP=2000 npm run bench:oauth
 *   BENCH_ONLY=ours|theirs     one side only;  BENCH_PROFILE=<dir>  V8 CPU profile of each phase
 */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DataSource } from 'typeorm';
import { AppModule } from '../src/app.module';
import { configureApp } from '../src/app.setup';
import { loadConfig } from '../src/config/app-config';
import { ApplicationsService } from '../src/modules/applications/applications.service';
import { UsersService } from '../src/modules/users/users.service';
import { benchDatabaseUrl, recreateDatabase } from './bench-database';

const OPS = Number(process.env.BENCH_OPS ?? 3000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const REDIRECT_URI = 'https://client.example/cb';
// A variable, so TypeScript does not look for the ESM-only package's types.
const OIDC_PROVIDER = 'oidc-provider';
const VERIFIER = randomBytes(32).toString('base64url');
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');

interface Target {
  name: string;
  storage: string;
  tokenUrl: string;
  clientId: string;
  /** Makes `n` fresh authorization codes bound to REDIRECT_URI and CHALLENGE. */
  makeCodes(n: number): Promise<string[]>;
  close(): Promise<void>;
}

async function ours(): Promise<Target> {
  const url = benchDatabaseUrl(process.env.BENCH_OAUTH_DATABASE_URL, 'idsvc_oauth_bench');
  await recreateDatabase(url);
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: url,
    PUBLIC_BASE_URL: 'http://127.0.0.1:3000',
  });
  const app = await NestFactory.create(AppModule.forRoot(config), { logger: false });
  configureApp(app);
  await app.listen(0, '127.0.0.1');
  const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const { application } = await app
    .get(ApplicationsService)
    .create({ name: 'Bench', redirectUris: [REDIRECT_URI], authMethod: 'none' });
  const user = await app
    .get(UsersService)
    .create({ username: 'bench', email: 'bench@example.org' });
  const db = app.get(DataSource);
  await db.query(
    `INSERT INTO app_users (application_id, user_id, granted_scope, auth_count) VALUES ($1, $2, 'read', 1)`,
    [application.id, user.id],
  );
  return {
    name: 'identity-service',
    storage: 'PostgreSQL (server, same machine)',
    tokenUrl: `${base}/api/oauth2/token`,
    clientId: application.clientId,
    async makeCodes(n) {
      const codes = Array.from({ length: n }, () => randomBytes(32).toString('base64url'));
      const hashes = codes.map((code) => createHash('sha256').update(code).digest('hex'));
      await db.query(
        `INSERT INTO oauth_codes (code_hash, application_id, user_id, redirect_uri, code_challenge, scope, expires_at)
         SELECT h, $2, $3, $4, $5, 'read', now() + interval '10 minutes' FROM unnest($1::text[]) AS h`,
        [hashes, application.id, user.id, REDIRECT_URI, CHALLENGE],
      );
      return codes;
    },
    close: () => app.close(),
  };
}

async function theirs(): Promise<Target> {
  const { default: Provider } = (await import(OIDC_PROVIDER)) as {
    default: new (issuer: string, config: object) => OidcProvider;
  };
  // Its MemoryAdapter is an LRU of 1000 entries, which would evict the pre-made codes; the same
  // adapter with room for every artefact of the run keeps the comparison to storage, not eviction.
  const dir = dirname(require.resolve('oidc-provider/package.json'));
  const { default: MemoryAdapter } = (await import(
    pathToFileURL(join(dir, 'lib/adapters/memory_adapter.js')).href
  )) as { default: new (model: string, store: unknown) => unknown };
  const { default: LRU } = (await import(pathToFileURL(join(dir, 'lib/helpers/lru.js')).href)) as {
    default: new (o: object) => unknown;
  };
  const store = new LRU({ maxSize: 10_000_000 });
  const server = await listenPort();
  const issuer = `http://127.0.0.1:${server.port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'bench',
        token_endpoint_auth_method: 'none',
        redirect_uris: [REDIRECT_URI],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
    ],
    findAccount: (_ctx: unknown, id: string) => ({ accountId: id, claims: () => ({ sub: id }) }),
    features: {
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => 'urn:bench',
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: 'read',
          accessTokenFormat: 'opaque',
          accessTokenTTL: 3600,
        }),
      },
    },
    adapter: (model: string) => new MemoryAdapter(model, store),
    issueRefreshToken: () => true,
    rotateRefreshToken: true,
    scopes: ['read'],
  });
  if (process.env.BENCH_DEBUG)
    provider.on('grant.error', (_ctx: unknown, err: { error_detail?: string }) =>
      console.error(err.error_detail),
    );
  const http = provider.listen(server.port) as Server;
  await new Promise((resolve) => http.once('listening', resolve));
  const client = await provider.Client.find('bench');
  return {
    name: `oidc-provider ${await oidcProviderVersion()}`,
    storage: 'in-memory (its MemoryAdapter, LRU 10M)',
    tokenUrl: `${issuer}/token`,
    clientId: 'bench',
    async makeCodes(n) {
      const codes: string[] = [];
      for (let i = 0; i < n; i++) {
        const grant = new provider.Grant({ accountId: 'user1', clientId: 'bench' });
        grant.addResourceScope('urn:bench', 'read');
        const grantId = await grant.save();
        const code = new provider.AuthorizationCode({
          accountId: 'user1',
          grantId,
          client,
          redirectUri: REDIRECT_URI,
          scope: 'read',
          resource: 'urn:bench',
          codeChallenge: CHALLENGE,
          codeChallengeMethod: 'S256',
        });
        codes.push(await code.save());
      }
      return codes;
    },
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}

/** The part of oidc-provider's API the benchmark touches. */
interface OidcProvider {
  listen(port: number): unknown;
  on(event: string, listener: (...args: never[]) => void): void;
  Client: { find(id: string): Promise<unknown> };
  Grant: new (args: object) => {
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  };
  AuthorizationCode: new (args: object) => { save(): Promise<string> };
}

async function oidcProviderVersion(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const pkg = JSON.parse(await readFile(require.resolve('oidc-provider/package.json'), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

async function listenPort(): Promise<{ port: number }> {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve({ port }));
    });
  });
}

async function post(url: string, form: Record<string, string>): Promise<{ refresh_token: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  const body = (await res.json()) as { refresh_token: string };
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** Busy and total jiffies of the whole machine (Linux /proc/stat), or null elsewhere. */
function machineCpu(): { busy: number; total: number } | null {
  try {
    const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
    const jiffies = fields.map(Number);
    const total = jiffies.reduce((a, b) => a + b, 0);
    return { busy: total - jiffies[3] - jiffies[4], total };
  } catch {
    return null;
  }
}

interface Phase {
  perSecond: number;
  /** CPU of the whole machine (all cores: server, database, load generator) per operation, µs. */
  machineUs: number | null;
  /** CPU of this process (server and load generator; not the database) per operation, µs. */
  processUs: number;
}

/** Runs `task` over `inputs` with CONCURRENCY workers. */
async function run<T>(
  label: string,
  inputs: T[],
  task: (input: T) => Promise<void>,
): Promise<Phase> {
  let next = 0;
  const profiler = await startProfile();
  const before = machineCpu();
  const ownBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < inputs.length) await task(inputs[next++]);
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const own = process.cpuUsage(ownBefore);
  const after = machineCpu();
  await profiler?.(label);
  const jiffiesPerSecond = 100; // USER_HZ on Linux
  return {
    perSecond: inputs.length / seconds,
    machineUs:
      before && after
        ? (((after.busy - before.busy) / jiffiesPerSecond) * 1e6) / inputs.length
        : null,
    processUs: (own.user + own.system) / inputs.length,
  };
}

/** With BENCH_PROFILE=<dir>, a V8 CPU profile of each measured phase of this process. */
async function startProfile(): Promise<((label: string) => Promise<void>) | null> {
  const dir = process.env.BENCH_PROFILE;
  if (!dir) return null;
  const { Session } = await import('node:inspector/promises');
  const { mkdir, writeFile } = await import('node:fs/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async (label) => {
    const { profile } = await session.post('Profiler.stop');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, `${label}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  };
}

interface Round {
  exchanges: Phase;
  refreshes: Phase;
}

/** One round on one target: OPS fresh codes exchanged, then each resulting refresh token used once. */
async function measure(target: Target, label: string, ops: number): Promise<Round> {
  const codes = await target.makeCodes(ops);
  const refreshTokens: string[] = [];
  const exchanges = await run(`${label}-exchanges`, codes, async (code) => {
    const body = await post(target.tokenUrl, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: target.clientId,
      code_verifier: VERIFIER,
    });
    refreshTokens.push(body.refresh_token);
  });
  const refreshes = await run(`${label}-refreshes`, refreshTokens, async (refreshToken) => {
    await post(target.tokenUrl, {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: target.clientId,
    });
  });
  return { exchanges, refreshes };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

function report(targets: Target[], rounds: Round[][]): void {
  const [ours, theirs] = rounds;
  const pick = (rs: Round[], k: keyof Round) => rs.map((r) => r[k].perSecond);
  const cpu = (rs: Round[], k: keyof Round, f: 'machineUs' | 'processUs') => {
    const values = rs.map((r) => r[k][f]).filter((v): v is number => v !== null);
    return values.length ? median(values).toFixed(0) : '-';
  };
  const cell = (v: string, w: number) => v.padStart(w);
  console.log(
    '\n| server                 | storage                                | exchanges/s | refreshes/s | CPU µs/exchange (machine / this process) |',
  );
  console.log(
    '| ---------------------- | -------------------------------------- | ----------: | ----------: | ---------------------------------------: |',
  );
  targets.forEach((target, i) => {
    const rs = rounds[i];
    console.log(
      `| ${target.name.padEnd(22)} | ${target.storage.padEnd(38)} | ${cell(median(pick(rs, 'exchanges')).toFixed(0), 11)} | ${cell(median(pick(rs, 'refreshes')).toFixed(0), 11)} | ${cell(`${cpu(rs, 'exchanges', 'machineUs')} / ${cpu(rs, 'exchanges', 'processUs')}`, 40)} |`,
    );
  });
  if (!theirs) return;
  // Each round pairs two adjacent measurements; the median of the per-round ratios resists a
  // drifting load on the machine better than a ratio of medians.
  const ratio = (k: keyof Round) =>
    median(ours.map((r, i) => r[k].perSecond / theirs[i][k].perSecond));
  console.log(
    `| ratio (ours / theirs)  | ${''.padEnd(38)} | ${cell(`${ratio('exchanges').toFixed(2)}×`, 11)} | ${cell(`${ratio('refreshes').toFixed(2)}×`, 11)} | ${''.padEnd(40)} |`,
  );
  const fmt = (rs: Round[], k: keyof Round) =>
    pick(rs, k)
      .map((v) => v.toFixed(0))
      .join(', ');
  console.log('\nper round (exchanges/s | refreshes/s):');
  targets.forEach((target, i) =>
    console.log(
      `  ${target.name}: ${fmt(rounds[i], 'exchanges')} | ${fmt(rounds[i], 'refreshes')}`,
    ),
  );
  const target = ratio('exchanges') >= 1 ? 'met' : 'NOT met';
  console.log(`target (ours >= 1.0x theirs on exchanges): ${target}`);
}

async function main(): Promise<void> {
  console.log(
    `OAuth token endpoint benchmark: ${ROUNDS} rounds x ${OPS} operations per target and phase, ${CONCURRENCY} concurrent clients, ${WARMUP} warm-up; node ${process.version}`,
  );
  const only = process.env.BENCH_ONLY; // 'ours' or 'theirs', e.g. to profile one side
  const targets: Target[] = [];
  try {
    for (const factory of [ours, theirs])
      if (only === undefined || factory.name === only) targets.push(await factory());
    for (const target of targets) await measure(target, 'warmup', WARMUP);
    const rounds: Round[][] = targets.map(() => []);
    for (let round = 0; round < ROUNDS; round += 1) {
      // Alternating order (ABBA): a slow drift of the machine's load weighs on both alike.
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      for (const i of order.filter((j) => j < targets.length))
        rounds[i].push(await measure(targets[i], `${targets[i].name}-${round}`, OPS));
    }
    report(targets, rounds);
  } finally {
    for (const target of targets) await target.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
