/**
 * The peers, each in a process of its own with the servers' Node (BENCH_NODE): oidc-provider with
 * its in-memory adapter, oidc-provider with the PostgreSQL adapter of targets/pg-adapter.ts (its
 * own database on the same server, re-created each run), and the bare Nest + Express route.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { recreateDatabase } from '../bench-database';
import { forkScript } from './child';
import { basicAuth, CHALLENGE, oauthPhases, REDIRECT_URI, type Target } from './target';

const TARGETS = join(__dirname, 'targets');

export async function oidcProvider(options: {
  node: string;
  storage: 'memory' | 'postgres';
  databaseUrl: string;
  logLevel: string;
  version: string;
}): Promise<Target> {
  const { node, storage, databaseUrl, logLevel, version } = options;
  if (storage === 'postgres') await recreateDatabase(databaseUrl);
  const secret = randomBytes(32).toString('base64url');
  const { child, ready } = await forkScript<{ url: string }>(
    `oidc-provider (${storage})`,
    join(TARGETS, 'oidc-provider.server.ts'),
    node,
    {
      BENCH_STORAGE: storage,
      BENCH_OIDC_DATABASE_URL: databaseUrl,
      BENCH_PORT: String(await freePort()),
      BENCH_LOG_LEVEL: logLevel,
      BENCH_REDIRECT_URI: REDIRECT_URI,
      BENCH_CHALLENGE: CHALLENGE,
      BENCH_RS_SECRET: secret,
    },
  );
  let tokens: Promise<string[]> | undefined;
  let rsTokens: Promise<string[]> | undefined;
  const phases = oauthPhases({
    tokenUrl: `${ready.url}/token`,
    userinfoUrl: `${ready.url}/me`,
    introspectionUrl: `${ready.url}/token/introspection`,
    clientId: 'bench',
    introspectionAuth: basicAuth('bench-rs', secret),
    userinfoExpect: '"preferred_username"',
    makeCodes: (n) => child.call<string[]>({ op: 'codes', n }),
    accessTokens: () => (tokens ??= child.call<string[]>({ op: 'accessTokens', n: 100 })),
    introspectionTokens: () =>
      (rsTokens ??= child.call<string[]>({ op: 'introspectionTokens', n: 100 })),
  });
  return {
    key: storage,
    name: `oidc-provider ${version} (${storage === 'memory' ? 'in memory' : 'PostgreSQL'})`,
    children: [child],
    database: storage === 'postgres' ? new URL(databaseUrl).pathname.slice(1) : undefined,
    ops: ['exchange', 'refresh', 'userinfo', 'introspection'],
    ...phases,
    close: () => child.stop(),
  };
}

export async function nestBare(options: {
  node: string;
  logLevel: string;
  /** `stock` (Nest as documented) or `service` (the service's server and log). */
  variant: 'stock' | 'service';
}): Promise<Target> {
  const { child, ready } = await forkScript<{ url: string }>(
    'bare Nest',
    join(TARGETS, 'nest-bare.server.ts'),
    options.node,
    {
      BENCH_PORT: String(await freePort()),
      BENCH_LOG_LEVEL: options.logLevel,
      BENCH_BARE: options.variant,
    },
  );
  return {
    key: 'bare',
    name:
      options.variant === 'stock'
        ? 'bare Nest 11 + Express route'
        : "bare Nest 11 + Express route (service's server and log)",
    children: [child],
    ops: ['me'],
    prepare: (_op, n) =>
      Promise.resolve({
        url: `${ready.url}/api/v1/app/me`,
        method: 'GET',
        headers: { authorization: 'Bearer sk_live_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789' },
        variants: [{}],
        amount: n,
        expect: '"apiKey"',
        collect: false,
      }),
    answered: () => undefined,
    close: () => child.stop(),
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.once('error', reject);
  });
}
