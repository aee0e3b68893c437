/**
 * This service as a target: dist/main.js (the build of this tree, or of another checkout for the
 * `baseline` target) in its own process on the benchmark's PostgreSQL database, NODE_ENV=production.
 * The baseline's database is prepared by this tree's code, so both trees must share the schema. The harness prepares the database first
 * (migrations, applications, users, relations, an API key) by booting AppModule in its own
 * process, then closes it; codes are inserted into oauth_codes before each exchange phase.
 *
 * With `instances` above 1 (BENCH_INSTANCES, the `ours×N` target), that many server processes
 * run the same build on the one database prepared once, with the same Redis, secrets and rate
 * limiter key prefix, as replicas behind a load balancer would; the phases' requests are spread
 * over them by the load generator's connections.
 */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { basename, join } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module';
import { loadConfig } from '../../src/config/app-config';
import { ApplicationsService } from '../../src/modules/applications/applications.service';
import { ApiKeysService } from '../../src/modules/keys/api-keys.service';
import { UsersService } from '../../src/modules/users/users.service';
import { recreateDatabase } from '../bench-database';
import { type Child, spawnServer } from './child';
import { HARNESS_APPLICATION_NAME } from './cpu';
import {
  basicAuth,
  CHALLENGE,
  oauthPhases,
  type PhaseLoad,
  REDIRECT_URI,
  type Target,
  VERIFIER,
} from './target';

const USERS = 100;
/** The service's PUBLIC_BASE_URL in the benchmark: what a DPoP proof's `htu` names. */
export const OURS_PUBLIC_BASE_URL = 'https://bench.example';

/** This service as a target, with what a benchmark of its own needs to make more requests. */
export interface OursTarget extends Target {
  /** Where the (first) server listens (http://127.0.0.1:port); the untimed requests go there. */
  base: string;
  /** The public (`none`) client of the phases. */
  clientId: string;
  /** Codes of the public client for `n` exchanges, inserted into oauth_codes (PKCE: VERIFIER). */
  makeCodes(n: number): Promise<string[]>;
}

interface Fixture {
  clientId: string;
  applicationId: number;
  rsApplicationId: number;
  rsClientId: string;
  rsSecret: string;
  apiKey: string;
  userIds: string[];
}

async function prepareDatabase(url: string): Promise<Fixture> {
  await recreateDatabase(url);
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: url });
  const app = await NestFactory.create(AppModule.forRoot(config), { logger: false });
  await app.init();
  try {
    const apps = app.get(ApplicationsService);
    const { application } = await apps.create({
      name: 'Bench',
      redirectUris: [REDIRECT_URI],
      authMethod: 'none',
    });
    const rs = await apps.create({
      name: 'Bench resource server',
      redirectUris: [REDIRECT_URI],
      authMethod: 'secret',
    });
    const users = app.get(UsersService);
    const userIds: string[] = [];
    for (let i = 0; i < USERS; i += 1)
      userIds.push(
        (await users.create({ username: `bench${i}`, email: `bench${i}@example.org` })).id,
      );
    // Both applications hold the users' relation: the resource server exchanges codes for the
    // tokens it introspects (its own; another client's would be inactive).
    await app.get(DataSource).query(
      `INSERT INTO app_users (application_id, user_id, granted_scope, auth_count)
       SELECT a, u, 'read', 1 FROM unnest($1::bigint[]) AS a, unnest($2::bigint[]) AS u`,
      [[application.id, rs.application.id], userIds],
    );
    const { plaintext } = await app.get(ApiKeysService).create(application.id, 'bench', []);
    return {
      clientId: application.clientId,
      applicationId: application.id,
      rsApplicationId: rs.application.id,
      rsClientId: rs.application.clientId,
      rsSecret: rs.clientSecret!,
      apiKey: plaintext,
      userIds,
    };
  } finally {
    await app.close();
  }
}

/** Which build of ours a target runs: this tree as is, another checkout, or a switch turned on. */
type OursVariant = 'ours' | 'baseline' | 'metrics' | 'traced';

/** The report's name of each variant (`baseline` adds its checkout's folder). */
const REPORT_NAMES: Record<OursVariant, string> = {
  ours: 'identity-service',
  baseline: 'identity-service at',
  metrics: 'identity-service, metrics on',
  traced: 'identity-service, traced',
};

export async function ours(options: {
  node: string;
  databaseUrl: string;
  logLevel: string;
  /** Another checkout's build to run instead of this tree's (the `baseline` target). */
  tree?: string;
  /** Prometheus metrics on (METRICS_PORT): the `metrics` target, against `ours` with them off. */
  metrics?: boolean;
  /** An OTLP/HTTP endpoint: tracing on, exporting there (the `traced` target). */
  tracesTo?: string;
  /** Server processes on the one database (default 1); more make the `ours×N` target. */
  instances?: number;
  /** The rate limiter's Redis (default: REDIS_URL; none: each process's own buckets). */
  redisUrl?: string;
}): Promise<OursTarget> {
  const { node, databaseUrl, logLevel, tree, metrics, tracesTo } = options;
  const instances = options.instances ?? 1;
  const redisUrl = options.redisUrl ?? process.env.REDIS_URL;
  const variant: OursVariant = tree
    ? 'baseline'
    : metrics
      ? 'metrics'
      : tracesTo
        ? 'traced'
        : 'ours';
  const main = tree ? join(tree, 'dist/main.js') : 'dist/main.js';
  const fixture = await prepareDatabase(databaseUrl);
  // BENCH_PROFILE=1: a V8 CPU profile of our server, written to bench/profiles/ when it exits.
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=bench/profiles'] : [];
  const processName = variant === 'ours' ? 'identity-service' : `identity-service (${variant})`;
  const args = [
    ...profile,
    ...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean),
    main,
  ];
  // One environment for every instance: the secrets (sealed requests, DPoP nonces) and the
  // limiter's key prefix must be the same on all of them, as on a deployment's replicas.
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
    PUBLIC_BASE_URL: OURS_PUBLIC_BASE_URL,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    // Fixed, so signing keys stored by an earlier run on this database still decrypt.
    SIGNING_KEYS_SECRET: 'bench-only-signing-keys-secret-not-for-deployments',
    DATABASE_URL: databaseUrl,
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    LOG_LEVEL: logLevel,
    // Far above the load: every request takes the whole limiter path and is admitted.
    RATE_LIMIT_PER_MINUTE: '1000000000',
    RATE_LIMIT_KEY_PREFIX: `idsvc-bench:${randomUUID()}:`,
    // The peers purge nothing during a run either.
    PURGE_INTERVAL_SECONDS: '0',
    ...(metrics ? { METRICS_PORT: '0' } : {}),
    ...(tracesTo ? { OTEL_EXPORTER_OTLP_ENDPOINT: tracesTo } : {}),
  };
  // One after the other: the first finds the database migrated and its signing keys made by
  // prepareDatabase, and the next ones boot on that same state, with nothing left to migrate.
  const children: Child[] = [];
  const bases: string[] = [];
  try {
    for (let i = 0; i < instances; i += 1) {
      const { child, port } = await spawnServer(
        instances === 1 ? processName : `${processName} #${i + 1}`,
        node,
        args,
        env,
      );
      children.push(child);
      bases.push(`http://127.0.0.1:${port}`);
    }
  } catch (error) {
    await Promise.all(children.map((c) => c.stop()));
    throw error;
  }
  const base = bases[0];
  /** A phase's requests spread over every instance (the URL of each, round robin). */
  const acrossInstances = (load: PhaseLoad): PhaseLoad => {
    const url = load.url;
    if (bases.length === 1 || typeof url !== 'string' || !url.startsWith(base)) return load;
    return { ...load, url: bases.map((b) => b + url.slice(base.length)) };
  };
  const db = new Client({
    connectionString: databaseUrl,
    application_name: HARNESS_APPLICATION_NAME,
  });
  await db.connect();
  const makeCodes = async (n: number, applicationId = fixture.applicationId): Promise<string[]> => {
    const codes = Array.from({ length: n }, () => randomBytes(32).toString('base64url'));
    const hashes = codes.map((code) => createHash('sha256').update(code).digest('hex'));
    const users = codes.map((_, i) => fixture.userIds[i % fixture.userIds.length]);
    await db.query(
      `INSERT INTO oauth_codes (code_hash, application_id, user_id, redirect_uri, code_challenge, scope, expires_at)
       SELECT h, $3, u, $4, $5, 'read', now() + interval '10 minutes'
         FROM unnest($1::text[], $2::bigint[]) AS c(h, u)`,
      [hashes, users, applicationId, REDIRECT_URI, CHALLENGE],
    );
    return codes;
  };
  const introspect = await fetch(`${base}/api/oauth2/introspect`, { method: 'POST' });
  const hasIntrospection = introspect.status !== 404;
  const rsAuth = basicAuth(fixture.rsClientId, fixture.rsSecret);
  const phases = oauthPhases({
    tokenUrl: `${base}/api/oauth2/token`,
    userinfoUrl: `${base}/api/oauth2/userinfo`,
    introspectionUrl: hasIntrospection ? `${base}/api/oauth2/introspect` : null,
    clientId: fixture.clientId,
    introspectionAuth: rsAuth,
    userinfoExpect: '"username"',
    makeCodes,
    accessTokens: async () =>
      exchangeOnce(
        `${base}/api/oauth2/token`,
        { client_id: fixture.clientId },
        await makeCodes(USERS),
      ),
    introspectionTokens: async () =>
      exchangeOnce(
        `${base}/api/oauth2/token`,
        { authorization: rsAuth },
        await makeCodes(USERS, fixture.rsApplicationId),
      ),
  });
  const name = tree ? `${REPORT_NAMES.baseline} ${basename(tree)}` : REPORT_NAMES[variant];
  return {
    key: instances === 1 ? variant : `${variant}×${instances}`,
    base,
    clientId: fixture.clientId,
    makeCodes: (n) => makeCodes(n),
    name: instances === 1 ? name : `${name} ×${instances}`,
    children,
    database: new URL(databaseUrl).pathname.slice(1),
    ops: [
      'exchange',
      'refresh',
      'userinfo',
      ...(hasIntrospection ? (['introspection'] as const) : []),
      'me',
    ],
    async prepare(op, n) {
      if (op !== 'me') return acrossInstances(await phases.prepare(op, n));
      return acrossInstances({
        url: `${base}/api/v1/app/me`,
        method: 'GET',
        headers: { authorization: `Bearer ${fixture.apiKey}` },
        variants: [{}],
        amount: n,
        expect: '"apiKey"',
        collect: false,
      });
    },
    answered: phases.answered,
    async close() {
      await db.end();
      await Promise.all(children.map((c) => c.stop()));
    },
  };
}

/**
 * Untimed: access tokens from exchanging pre-made codes, one request at a time, as the public
 * client (`client_id`) or a confidential one (client_secret_basic `authorization`).
 */
async function exchangeOnce(
  tokenUrl: string,
  client: { client_id: string } | { authorization: string },
  codes: string[],
): Promise<string[]> {
  const tokens: string[] = [];
  for (const code of codes) {
    const res = await fetch(tokenUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...('authorization' in client ? { authorization: client.authorization } : {}),
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        ...('client_id' in client ? { client_id: client.client_id } : {}),
        code_verifier: VERIFIER,
      }),
    });
    const body = (await res.json()) as { access_token?: string };
    if (res.status !== 200 || !body.access_token)
      throw new Error(`token: ${res.status} ${JSON.stringify(body)}`);
    tokens.push(body.access_token);
  }
  return tokens;
}
