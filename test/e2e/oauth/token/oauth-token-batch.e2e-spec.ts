import type { Pool } from 'pg';
import type { QueryRunner } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { sha256Hex } from '../../../../src/common/crypto/hash';
import { s256 } from '../../../../src/common/crypto/opaque-token';
import { redeemCodes } from '../../../../src/modules/oauth/token/grants/authorization-code-sql';
import { rotateRefreshTokens } from '../../../../src/modules/oauth/token/grants/refresh-token-sql';
import {
  TOKEN_BATCHES_IN_FLIGHT,
  TokenBatches,
} from '../../../../src/modules/oauth/token/token-batches';
import { TokenIssuer } from '../../../../src/modules/oauth/token/token-issuer';
import {
  authorizeInteractively,
  authorizeParams,
  authorizePath,
  browser,
  oauthSetup,
  pkce,
  query,
  REDIRECT_URI,
  tokenRequest,
} from '../../../support/oauth';
import { createTestApp, TestApp } from '../../../support/test-app';
import { usingRealServices } from '../../../support/test-env';

type Res = Awaited<ReturnType<typeof tokenRequest>>;

/**
 * Group commit: concurrent code exchanges and refreshes go as one statement and one
 * commit (src/modules/oauth/token/token-batches.ts), and each request still gets the answer it would
 * have got alone. Every case runs on PostgreSQL and on the embedded PGlite.
 */
describe('Token endpoint group commit', () => {
  let t: TestApp;
  let other: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    // A second instance on the same database needs DATABASE_URL (the embedded one is per process).
    other = usingRealServices() ? await createTestApp({ clock: t.clock }) : t;
  });
  afterAll(async () => {
    if (other !== t) await other?.close();
    await t?.close();
  });
  beforeEach(() => t.truncate());

  const { verifier, challenge } = pkce();

  /** A public client whose user has consented, and a source of fresh codes for it. */
  async function publicClient(scope = 'read') {
    const setup = await oauthSetup(t.app, { authMethod: 'none' });
    const clientId = setup.application.clientId;
    const agent = browser(t.app);
    const first = await authorizeInteractively(agent, { clientId, challenge, scope });
    const spare = [first.code];
    const nextCode = async (): Promise<string> => {
      const code = spare.pop();
      if (code) return code;
      const res = await agent.get(authorizePath(authorizeParams({ clientId, challenge, scope })));
      return query(res.headers.location).code;
    };
    const codes = async (n: number): Promise<string[]> => {
      const list: string[] = [];
      for (let i = 0; i < n; i += 1) list.push(await nextCode());
      return list;
    };
    const exchange = (code: string, on: TestApp = t, form: Record<string, string> = {}) =>
      tokenRequest(on.app, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        client_id: clientId,
        code_verifier: verifier,
        ...form,
      });
    const refresh = (refreshToken: string, on: TestApp = t, form: Record<string, string> = {}) =>
      tokenRequest(on.app, {
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: clientId,
        ...form,
      });
    return { ...setup, clientId, nextCode, codes, exchange, refresh };
  }

  const count = async (sql: string, params: unknown[] = []): Promise<number> => {
    const [{ n }] = await t.dataSource.query<{ n: number }[]>(sql, params);
    return n;
  };
  const events = (type: string) =>
    count('SELECT count(*)::int AS n FROM events WHERE event_type = $1', [type]);
  const sizes = (stat: 'exchange_public' | 'refresh_public') =>
    t.app.get(TokenBatches).stats()[stat].sizes;

  /**
   * Holds TOKEN_BATCHES_IN_FLIGHT requests, sends `batch()` while they wait, and releases them
   * once every request of the batch is queued: the batch then goes as one statement. Returns the
   * responses. On PostgreSQL the held requests wait for row locks of another transaction; the
   * embedded PGlite is one session (pool of one), so there they wait for its only connection,
   * which the test holds.
   */
  async function heldBatch(
    lock: { table: 'oauth_codes' | 'oauth_tokens'; column: string; secrets: string[] },
    held: () => Promise<Res>[],
    batch: () => Promise<Res>[],
    operation: 'exchange' | 'refresh' = 'exchange',
  ): Promise<{ held: Res[]; batch: Res[] }> {
    const runner: QueryRunner = t.dataSource.createQueryRunner();
    await runner.connect();
    const realDatabase = usingRealServices();
    if (realDatabase) await runner.startTransaction();
    let released = false;
    try {
      if (realDatabase) {
        const hashes = lock.secrets.map(sha256Hex);
        await runner.query(
          `SELECT 1 FROM ${lock.table} WHERE ${lock.column} = ANY($1) FOR UPDATE`,
          [hashes],
        );
      }
      const heldResponses = Promise.all(held());
      await until(async () =>
        realDatabase
          ? (await lockWaiters()) === lock.secrets.length
          : connectionWaiters() === lock.secrets.length,
      );
      // supertest sends a request when it is awaited: start them all now.
      const batchRequests = batch().map((req) => req.then((res) => res));
      const batches = t.app.get(TokenBatches);
      await until(() =>
        Promise.resolve(batches.waiting(operation, 'public') === batchRequests.length),
      );
      if (realDatabase) await runner.commitTransaction();
      released = true;
      await runner.release();
      return { held: await heldResponses, batch: await Promise.all(batchRequests) };
    } finally {
      if (!released) {
        if (realDatabase) await runner.rollbackTransaction();
        await runner.release();
      }
    }
  }

  /** Requests waiting for a connection of the app's pool (embedded: for its only one). */
  const connectionWaiters = () =>
    ((t.dataSource.driver as PostgresDriver).master as Pool).waitingCount;

  const lockWaiters = () =>
    count(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'`,
    );

  /** Waits (by polling, no fixed delay) until `condition` holds; fails after 10 s. */
  async function until(condition: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error('condition not reached');
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  it('exchanges forty distinct codes sent at once: all succeed, distinct tokens, one event each', async () => {
    const client = await publicClient();
    const codes = await client.codes(40);
    const results = await Promise.all(codes.map((code) => client.exchange(code)));
    expect(results.map((r) => r.status)).toEqual(codes.map(() => 200));
    const tokens = results.flatMap((r) => [r.body.access_token, r.body.refresh_token]);
    expect(new Set(tokens).size).toBe(80);
    expect(await count('SELECT count(*)::int AS n FROM oauth_tokens')).toBe(40);
    expect(await events('token_issued')).toBe(40);
    // Every issued token is the one its client received.
    const stored = await count(
      'SELECT count(*)::int AS n FROM oauth_tokens WHERE access_token_hash = ANY($1)',
      [results.map((r) => sha256Hex(r.body.access_token))],
    );
    expect(stored).toBe(40);
  });

  it('answers each code of one batch statement on its own', async () => {
    const client = await publicClient();
    const [good, wrongUri, wrongVerifier, spent] = await client.codes(4);
    expect((await client.exchange(spent)).status).toBe(200);
    const issuer = t.app.get(TokenIssuer);
    const item = (code: string, redirectUri = REDIRECT_URI, v = verifier) => ({
      code,
      client: { publicClientId: client.clientId },
      redirectUri,
      verifierHash: s256(v),
      tokens: issuer.mint(),
      jkt: null,
      refreshJkt: null,
    });
    const answers = await redeemCodes(t.dataSource, 'public', [
      item(good),
      item(wrongUri, 'https://client.example/other'),
      item('unknown-code'),
      item(wrongVerifier, REDIRECT_URI, 'w'.repeat(43)),
      item(spent),
    ]);
    expect(
      answers.map((a) => a && { issued: a.issued, uri: a.ok_code_redirect_uri, pkce: a.ok_pkce }),
    ).toEqual([
      { issued: true, uri: true, pkce: true },
      { issued: false, uri: false, pkce: true },
      null,
      { issued: false, uri: true, pkce: false },
      null,
    ]);
    expect(await count('SELECT count(*)::int AS n FROM oauth_tokens')).toBe(2);
    expect(await events('token_issued')).toBe(2);
    const consumed = await count(
      'SELECT count(*)::int AS n FROM oauth_codes WHERE consumed_at IS NOT NULL',
    );
    expect(consumed).toBe(4);
  });

  it('answers each refresh token of one batch statement on its own', async () => {
    const client = await publicClient('read profile');
    const pairs = await Promise.all(
      (await client.codes(3)).map(async (code) => (await client.exchange(code)).body),
    );
    const issuer = t.app.get(TokenIssuer);
    const item = (refreshToken: string, scope: string | null) => ({
      refreshToken,
      client: { publicClientId: client.clientId },
      scope,
      tokens: issuer.mint(),
      jkt: null,
      refreshJkt: null,
      reuseSeconds: 0,
    });
    const answers = await rotateRefreshTokens(t.dataSource, 'public', [
      item(pairs[0].refresh_token, null),
      item(pairs[1].refresh_token, 'read email'),
      item('unknown-token', null),
      item(pairs[2].refresh_token, 'read'),
    ]);
    expect(answers.map((a) => a?.scope ?? null)).toEqual(['read profile', null, null, 'read']);
    expect(await events('token_refreshed')).toBe(2);
    const rotated = await count(
      'SELECT count(*)::int AS n FROM oauth_tokens WHERE rotated_at IS NOT NULL',
    );
    expect(rotated).toBe(2);
  });

  it('sends the requests that arrive during a round trip as one batch, each with its own answer', async () => {
    const client = await publicClient();
    const codes = await client.codes(TOKEN_BATCHES_IN_FLIGHT + 4);
    const blockers = codes.slice(0, TOKEN_BATCHES_IN_FLIGHT);
    const [good, other, wrongUri, replayed] = codes.slice(TOKEN_BATCHES_IN_FLIGHT);
    const first = await client.exchange(replayed);
    expect(first.status).toBe(200);
    const before = sizes('exchange_public')[4] ?? 0;
    const { held, batch } = await heldBatch(
      { table: 'oauth_codes', column: 'code_hash', secrets: blockers },
      () => blockers.map((code) => client.exchange(code)),
      () => [
        client.exchange(good),
        client.exchange(wrongUri, t, { redirect_uri: 'http://127.0.0.1:8123/cb' }),
        client.exchange(replayed),
        client.exchange(other),
      ],
    );
    expect(held.map((r) => r.status)).toEqual(blockers.map(() => 200));
    expect(batch.map((r) => [r.status, r.body.error_description ?? 'ok'])).toEqual([
      [200, 'ok'],
      [400, 'redirect_uri does not match the authorization request'],
      [400, 'The authorization code is invalid, expired or already used'],
      [200, 'ok'],
    ]);
    expect(sizes('exchange_public')[4]).toBe(before + 1);
    // The replay revoked what the code had issued (RFC 6749 section 4.1.2).
    const revoked = await count(
      'SELECT count(*)::int AS n FROM oauth_tokens WHERE access_token_hash = $1 AND revoked_at IS NOT NULL',
      [sha256Hex(first.body.access_token as string)],
    );
    expect(revoked).toBe(1);
    expect(await events('token_issued')).toBe(TOKEN_BATCHES_IN_FLIGHT + 3);
  });

  it('rotates the refreshes that arrive together in one batch: narrowing, widening and reuse', async () => {
    const client = await publicClient('read profile');
    const codes = await client.codes(TOKEN_BATCHES_IN_FLIGHT + 3);
    const pairs = await Promise.all(codes.map(async (code) => (await client.exchange(code)).body));
    const blockers = pairs.slice(0, TOKEN_BATCHES_IN_FLIGHT).map((p) => p.refresh_token);
    const [a, b, c] = pairs.slice(TOKEN_BATCHES_IN_FLIGHT).map((p) => p.refresh_token);
    // `c` was rotated a moment ago: presented again within the reuse interval, it gets a sibling.
    expect((await client.refresh(c)).status).toBe(200);
    const { batch } = await heldBatch(
      { table: 'oauth_tokens', column: 'refresh_token_hash', secrets: blockers },
      () => blockers.map((token) => client.refresh(token)),
      () => [
        client.refresh(a, t, { scope: 'read' }),
        client.refresh(b, t, { scope: 'read email' }),
        client.refresh(c),
      ],
      'refresh',
    );
    expect(batch.map((r) => [r.status, r.body.scope ?? r.body.error])).toEqual([
      [200, 'read'],
      [400, 'invalid_scope'],
      [200, 'read profile'],
    ]);
    expect(await events('token_refreshed')).toBe(TOKEN_BATCHES_IN_FLIGHT + 3);
  });

  it('runs each request of a failed batch statement alone, with the answer it would get alone', async () => {
    // A deadlock (40P01) raised in every batch statement, and in no single one.
    await t.dataSource.query(`
        CREATE OR REPLACE FUNCTION test_fail_token_batches() RETURNS trigger AS $$
        BEGIN
          IF current_query() LIKE '%WITH ORDINALITY%' THEN
            RAISE EXCEPTION 'test: batch statement fails' USING ERRCODE = '40P01';
          END IF;
          RETURN NEW;
        END $$ LANGUAGE plpgsql`);
    await t.dataSource.query(`CREATE TRIGGER test_fail_token_batches BEFORE INSERT ON events
        FOR EACH ROW EXECUTE FUNCTION test_fail_token_batches()`);
    try {
      const client = await publicClient();
      const codes = await client.codes(TOKEN_BATCHES_IN_FLIGHT + 3);
      const blockers = codes.slice(0, TOKEN_BATCHES_IN_FLIGHT);
      const [good, wrongUri, other] = codes.slice(TOKEN_BATCHES_IN_FLIGHT);
      const failedBefore = t.app.get(TokenBatches).stats().exchange_public.failedBatches;
      const { batch } = await heldBatch(
        { table: 'oauth_codes', column: 'code_hash', secrets: blockers },
        () => blockers.map((code) => client.exchange(code)),
        () => [
          client.exchange(good),
          client.exchange(wrongUri, t, { redirect_uri: 'http://127.0.0.1:8123/cb' }),
          client.exchange(other),
        ],
      );
      expect(batch.map((r) => [r.status, r.body.error_description ?? 'ok'])).toEqual([
        [200, 'ok'],
        [400, 'redirect_uri does not match the authorization request'],
        [200, 'ok'],
      ]);
      const stats = t.app.get(TokenBatches).stats().exchange_public;
      expect(stats.failedBatches).toBe(failedBefore + 1);
      expect(await events('token_issued')).toBe(TOKEN_BATCHES_IN_FLIGHT + 2);
    } finally {
      await t.dataSource.query('DROP TRIGGER IF EXISTS test_fail_token_batches ON events');
      await t.dataSource.query('DROP FUNCTION IF EXISTS test_fail_token_batches()');
    }
  });

  it('redeems on two instances at once: distinct codes all succeed, one code exactly once', async () => {
    const client = await publicClient();
    const codes = await client.codes(30);
    const contested = await client.nextCode();
    const requests = [
      ...codes.map((code, i) => client.exchange(code, i % 2 === 0 ? t : other)),
      ...Array.from({ length: 10 }, (_, i) => client.exchange(contested, i % 2 === 0 ? t : other)),
    ];
    const results = await Promise.all(requests);
    expect(results.slice(0, 30).map((r) => r.status)).toEqual(codes.map(() => 200));
    const contestedStatuses = results.slice(30).map((r) => r.status);
    expect(contestedStatuses.filter((s) => s === 200)).toHaveLength(1);
    expect(contestedStatuses.filter((s) => s === 400)).toHaveLength(9);
    expect(await events('token_issued')).toBe(31);
    // The contested code's winner lost its tokens to the replays (RFC 6749 section 4.1.2).
    const winner = results.slice(30).find((r) => r.status === 200)!;
    const revoked = await count(
      'SELECT count(*)::int AS n FROM oauth_tokens WHERE access_token_hash = $1 AND revoked_at IS NOT NULL',
      [sha256Hex(winner.body.access_token as string)],
    );
    expect(revoked).toBe(1);
    // Then every new refresh token is rotated once, spread over both instances.
    const fresh = results.slice(0, 30).map((r) => r.body.refresh_token as string);
    const refreshed = await Promise.all(
      fresh.map((token, i) => client.refresh(token, i % 2 === 0 ? other : t)),
    );
    expect(refreshed.map((r) => r.status)).toEqual(fresh.map(() => 200));
    expect(await events('token_refreshed')).toBe(30);
  });
});
