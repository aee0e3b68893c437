/**
 * Code→token exchanges per second and refreshes per second: this service on PostgreSQL versus
 * panva's oidc-provider (opaque tokens, its default in-memory adapter), same machine, same load
 * generator, same concurrency, one after the other (docs/performance-oauth.md).
 *
 *   npm run bench:oauth        (BENCH_OAUTH_DATABASE_URL, or DATABASE_URL's server with db idsvc_oauth_bench)
 *   BENCH_OPS=2000 BENCH_CONCURRENCY=16 npm run bench:oauth
 */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { createHash, randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { AppModule } from '../src/app.module';
import { configureApp } from '../src/app.setup';
import { loadConfig } from '../src/config/app-config';
import { ApplicationsService } from '../src/modules/applications/applications.service';
import { UsersService } from '../src/modules/users/users.service';

const OPS = Number(process.env.BENCH_OPS ?? 3000);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 300);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
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

interface Result {
  exchangesPerSecond: number;
  refreshesPerSecond: number;
}

function benchUrl(): string {
  if (process.env.BENCH_OAUTH_DATABASE_URL) return process.env.BENCH_OAUTH_DATABASE_URL;
  const base = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  base.pathname = '/idsvc_oauth_bench';
  return base.toString();
}

async function recreateDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`refusing odd database name ${name}`);
  target.pathname = '/postgres';
  const admin = new Client({ connectionString: target.toString() });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
}

async function ours(): Promise<Target> {
  const url = benchUrl();
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

/** Runs `tasks` with CONCURRENCY workers; returns operations per second. */
async function run<T>(inputs: T[], task: (input: T) => Promise<void>): Promise<number> {
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < inputs.length) await task(inputs[next++]);
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return inputs.length / seconds;
}

async function measure(target: Target): Promise<Result> {
  const exchange = (code: string) =>
    post(target.tokenUrl, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: target.clientId,
      code_verifier: VERIFIER,
    });
  const refreshTokens: string[] = [];
  const warm = await target.makeCodes(WARMUP);
  await run(warm, async (code) => void refreshTokens.push((await exchange(code)).refresh_token));
  await run(
    refreshTokens.splice(0),
    async (rt) =>
      void (await post(target.tokenUrl, {
        grant_type: 'refresh_token',
        refresh_token: rt,
        client_id: target.clientId,
      })),
  );
  const codes = await target.makeCodes(OPS);
  const exchangesPerSecond = await run(
    codes,
    async (code) => void refreshTokens.push((await exchange(code)).refresh_token),
  );
  const refreshesPerSecond = await run(
    refreshTokens,
    async (rt) =>
      void (await post(target.tokenUrl, {
        grant_type: 'refresh_token',
        refresh_token: rt,
        client_id: target.clientId,
      })),
  );
  return { exchangesPerSecond, refreshesPerSecond };
}

async function main(): Promise<void> {
  console.log(
    `OAuth token endpoint benchmark: ${OPS} operations each, ${CONCURRENCY} concurrent clients, ${WARMUP} warm-up; node ${process.version}`,
  );
  const results: { target: Target; result: Result }[] = [];
  for (const factory of [ours, theirs]) {
    const target = await factory();
    try {
      results.push({ target, result: await measure(target) });
    } finally {
      await target.close();
    }
  }
  const [a, b] = results;
  const row = (name: string, storage: string, x: number, y: number) =>
    `| ${name.padEnd(22)} | ${storage.padEnd(38)} | ${x.toFixed(0).padStart(11)} | ${y.toFixed(0).padStart(11)} |`;
  console.log(
    '\n| server                 | storage                                | exchanges/s | refreshes/s |',
  );
  console.log(
    '| ---------------------- | -------------------------------------- | ----------- | ----------- |',
  );
  for (const { target, result } of results)
    console.log(
      row(target.name, target.storage, result.exchangesPerSecond, result.refreshesPerSecond),
    );
  console.log(
    `| ratio (ours / theirs)  | ${''.padEnd(38)} | ${(a.result.exchangesPerSecond / b.result.exchangesPerSecond).toFixed(2).padStart(10)}× | ${(a.result.refreshesPerSecond / b.result.refreshesPerSecond).toFixed(2).padStart(10)}× |`,
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
