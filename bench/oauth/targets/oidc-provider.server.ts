/**
 * panva's oidc-provider in a process of its own (forked by bench/oauth/peers.ts), with its
 * in-memory adapter (BENCH_STORAGE=memory) or the PostgreSQL adapter of pg-adapter.ts
 * (BENCH_STORAGE=postgres, BENCH_OIDC_DATABASE_URL). The harness asks it over the IPC channel
 * for the pre-made inputs, made with the provider's own models in this process (no route).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Pool } from 'pg';
import pinoHttp from 'pino-http';
import { accessLogOptions } from '../../../src/common/http/access-log';
import { PgAdapter, SCHEMA } from './pg-adapter';
import { type Account, accountStore, type Provider, providerConfig } from './oidc-provider.config';

const STORAGE = process.env.BENCH_STORAGE === 'postgres' ? 'postgres' : 'memory';
const PROVIDER = 'oidc-provider'; // a variable: TypeScript does not look for the ESM package's types

async function memoryAdapter(): Promise<(model: string) => unknown> {
  // Its MemoryAdapter is an LRU of 1000 entries, which would evict the pre-made codes; the same
  // adapter with room for every artefact of the run keeps the comparison to storage.
  const dir = dirname(require.resolve('oidc-provider/package.json'));
  const load = async (file: string) =>
    (
      (await import(pathToFileURL(join(dir, file)).href)) as {
        default: new (...a: unknown[]) => unknown;
      }
    ).default;
  const MemoryAdapter = await load('lib/adapters/memory_adapter.js');
  const LRU = await load('lib/helpers/lru.js');
  const store = new LRU({ maxSize: 10_000_000 });
  return (model) => new MemoryAdapter(model, store);
}

async function postgresAdapter(pool: Pool): Promise<(model: string) => unknown> {
  await pool.query(SCHEMA);
  return (model) => new PgAdapter(pool, model);
}

async function main(): Promise<void> {
  const pool =
    STORAGE === 'postgres'
      ? new Pool({
          connectionString: process.env.BENCH_OIDC_DATABASE_URL,
          max: 10, // the identity service's DATABASE_POOL_MAX default
          idleTimeoutMillis: 30_000,
          application_name: 'oidc-provider-bench',
          options: '-c synchronous_commit=on',
        })
      : undefined;
  const adapter = pool ? await postgresAdapter(pool) : await memoryAdapter();
  const accounts = await accountStore(pool);
  const { default: ProviderClass } = (await import(PROVIDER)) as {
    default: new (issuer: string, config: object) => Provider;
  };
  const port = Number(process.env.BENCH_PORT);
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new ProviderClass(issuer, providerConfig(adapter, accounts, pool));
  const handle = provider.callback();
  const level = process.env.BENCH_LOG_LEVEL ?? 'info';
  const log = level === 'silent' ? null : pinoHttp(accessLogOptions(level));
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    log?.(req, res);
    void handle(req, res);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  process.on('message', (message: { id: number; op: string; n: number }) => {
    inputs(provider, accounts, message.op, message.n).then(
      (result) => process.send!({ id: message.id, result }),
      (error: unknown) => process.send!({ id: message.id, error: String(error) }),
    );
  });
  // An orphan (the harness died without stopping it) ends with its IPC channel.
  process.on('disconnect', () => process.exit(0));
  process.on('SIGTERM', () => {
    server.close();
    server.closeAllConnections();
    void pool?.end();
    process.exit(0);
  });
  process.send!({ ready: { url: issuer } });
}

/**
 * Pre-made inputs: `n` authorization codes (`codes`), `n` access tokens of the public client for
 * userinfo (`accessTokens`), or `n` access tokens of the resource-server client for its own
 * introspection (`introspectionTokens`, scope `read` on `urn:bench` like ours).
 */
async function inputs(
  provider: Provider,
  accounts: Account[],
  op: string,
  n: number,
): Promise<string[]> {
  const clientId = op === 'introspectionTokens' ? 'bench-rs' : 'bench';
  const client = await provider.Client.find(clientId);
  const make = async (i: number): Promise<string> => {
    const accountId = accounts[i % accounts.length].id;
    const grant = new provider.Grant({ accountId, clientId });
    if (op === 'accessTokens') grant.addOIDCScope('openid profile email');
    else grant.addResourceScope('urn:bench', 'read');
    const grantId = await grant.save();
    if (op === 'codes')
      return new provider.AuthorizationCode({
        accountId,
        grantId,
        client,
        redirectUri: process.env.BENCH_REDIRECT_URI,
        scope: 'read',
        resource: 'urn:bench',
        codeChallenge: process.env.BENCH_CHALLENGE,
        codeChallengeMethod: 'S256',
      }).save();
    if (op === 'introspectionTokens')
      return new provider.AccessToken({
        accountId,
        grantId,
        client,
        scope: 'read',
        resourceServer: { audience: 'urn:bench', scope: 'read', accessTokenFormat: 'opaque' },
        gty: 'authorization_code',
      }).save();
    // No resource: a token for the userinfo endpoint, opaque (oidc-provider's default format).
    return new provider.AccessToken({
      accountId,
      grantId,
      client,
      scope: 'openid profile email',
      gty: 'authorization_code',
    }).save();
  };
  const out: string[] = new Array<string>(n);
  let next = 0;
  // Sixteen at a time: the PostgreSQL adapter writes two rows per input.
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await make(i);
      }
    }),
  );
  return out;
}

main().catch((error: unknown) => {
  process.stderr.write(
    `oidc-provider target: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
