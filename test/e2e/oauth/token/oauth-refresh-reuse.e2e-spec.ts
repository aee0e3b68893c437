import { createApplication } from '../../../factories';
import {
  authorizeInteractively,
  basic,
  browser,
  oauthSetup,
  pkce,
  REDIRECT_URI,
  tokenRequest,
} from '../../../support/oauth';
import { createTestApp, TestApp } from '../../../support/test-app';

/** REFRESH_TOKEN_REUSE_SECONDS by default (.env.example). */
const REUSE_SECONDS = 10;
const SUPERSEDED = {
  error: 'invalid_grant',
  error_description:
    'The refresh token was superseded by another refresh of its family; the family has been revoked',
};
const REPLAYED = {
  error: 'invalid_grant',
  error_description: 'The refresh token was already used; its token family has been revoked',
};

/**
 * A refresh token presented again by its client within the reuse interval after
 * its rotation gets a fresh pair of the same family (two tabs refreshing at once); after the
 * interval a replay still revokes the family (RFC 9700 section 4.14.2). With the interval off,
 * oauth-refresh.e2e-spec.ts.
 */
describe('Refresh token reuse interval (REFRESH_TOKEN_REUSE_SECONDS)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  type TokenPair = { access_token: string; refresh_token: string };

  /** A client of `authMethod`, its first token pair, and a function to refresh as that client. */
  async function tokens(authMethod: 'none' | 'secret' = 'none') {
    const setup = await oauthSetup(t.app, { authMethod });
    const { verifier, challenge } = pkce();
    const clientId = setup.application.clientId;
    const { code } = await authorizeInteractively(browser(t.app), { clientId, challenge });
    const auth = setup.clientSecret ? basic(clientId, setup.clientSecret) : undefined;
    const asClient: Record<string, string> = auth ? {} : { client_id: clientId };
    const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI };
    const res = await tokenRequest(t.app, { ...form, ...asClient, code_verifier: verifier }, auth);
    expect(res.status).toBe(200);
    const refresh = (refreshToken: string) =>
      tokenRequest(
        t.app,
        { grant_type: 'refresh_token', refresh_token: refreshToken, ...asClient },
        auth,
      );
    return { ...setup, first: res.body as TokenPair, refresh };
  }
  const userinfo = (accessToken: string) =>
    t.http().get('/api/oauth2/userinfo').set('Authorization', `Bearer ${accessToken}`);
  const sql = <T>(query: string): Promise<T[]> => t.dataSource.query<T[]>(query);

  /** Both tokens of each pair work: the access token at userinfo, the refresh token once. */
  async function expectWorking(pairs: TokenPair[], refresh: (token: string) => Promise<unknown>) {
    for (const pair of pairs) expect((await userinfo(pair.access_token)).status).toBe(200);
    for (const pair of pairs)
      expect(await refresh(pair.refresh_token)).toMatchObject({ status: 200 });
  }

  it.each(['none', 'secret'] as const)(
    'answers two parallel refreshes of one token (%s client) with two distinct, working pairs',
    async (authMethod) => {
      const { first, refresh } = await tokens(authMethod);
      const results = await Promise.all([
        refresh(first.refresh_token),
        refresh(first.refresh_token),
      ]);
      expect(results.map((r) => r.status)).toEqual([200, 200]);
      const pairs = results.map((r) => r.body as TokenPair);
      expect(pairs[0].refresh_token).not.toBe(pairs[1].refresh_token);
      expect(pairs[0].access_token).not.toBe(pairs[1].access_token);
      // Same family, both children of the presented token; nothing revoked.
      const rows = await sql<{ n: number; revoked: number; parents: number; families: number }>(
        `SELECT count(*)::int AS n, count(revoked_at)::int AS revoked,
           count(DISTINCT parent_id)::int AS parents, count(DISTINCT family_id)::int AS families
         FROM oauth_tokens WHERE parent_id IS NOT NULL`,
      );
      expect(rows).toEqual([{ n: 2, revoked: 0, parents: 1, families: 1 }]);
      await expectWorking(pairs, refresh);
      const events = await sql<{ event_type: string }>(
        "SELECT event_type FROM events WHERE event_type LIKE 'token_%' ORDER BY id",
      );
      expect(events.map((e) => e.event_type)).toEqual([
        'token_issued',
        ...Array<string>(4).fill('token_refreshed'),
      ]);
    },
  );

  it('answers ten parallel refreshes of one token with ten distinct, working pairs', async () => {
    const { first, refresh } = await tokens();
    const rotatedAt = t.clock.now();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => refresh(first.refresh_token)),
    );
    expect(results.map((r) => r.status)).toEqual(Array<number>(10).fill(200));
    const pairs = results.map((r) => r.body as TokenPair);
    expect(new Set(pairs.map((p) => p.refresh_token)).size).toBe(10);
    expect(new Set(pairs.map((p) => p.access_token)).size).toBe(10);
    // Each waited for the previous one's row lock and matched the reuse condition again; none
    // moved the first rotation.
    const parent = await sql<{ rotated_at: Date }>(
      'SELECT rotated_at FROM oauth_tokens WHERE parent_id IS NULL',
    );
    expect(parent).toEqual([{ rotated_at: rotatedAt }]);
    await expectWorking(pairs, refresh);
  });

  it('revokes the whole family on a replay after the interval, the pairs of the interval included', async () => {
    const { first, refresh } = await tokens();
    const within = await Promise.all([refresh(first.refresh_token), refresh(first.refresh_token)]);
    expect(within.map((r) => r.status)).toEqual([200, 200]);
    t.clock.advance(REUSE_SECONDS * 1000);
    // At the interval's last second, still a reuse; it does not restart the interval.
    const last = await refresh(first.refresh_token);
    expect(last.status).toBe(200);
    t.clock.advance(1000);
    const replay = await refresh(first.refresh_token);
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual(REPLAYED);
    const rows = await sql<{ n: number; revoked: number }>(
      'SELECT count(*)::int AS n, count(revoked_at)::int AS revoked FROM oauth_tokens',
    );
    expect(rows).toEqual([{ n: 4, revoked: 4 }]);
    for (const res of [...within, last]) {
      const pair = res.body as TokenPair;
      expect((await userinfo(pair.access_token)).status).toBe(401);
      expect((await refresh(pair.refresh_token)).body.error).toBe('invalid_grant');
    }
    const revoked = await sql<{ description: string }>(
      "SELECT description FROM events WHERE event_type = 'token_revoked'",
    );
    expect(revoked).toEqual([
      { description: 'refresh token reused: 4 token(s) of the family revoked' },
    ]);
  });

  describe('a fork within the interval: after it, one branch only (RFC 9700 section 4.14.2)', () => {
    /** Two refreshes of the first token within the interval: two branches, both working. */
    async function forked() {
      const client = await tokens('secret');
      const branches: TokenPair[] = [];
      for (let i = 0; i < 2; i++) {
        const res = await client.refresh(client.first.refresh_token);
        expect(res.status).toBe(200);
        branches.push(res.body as TokenPair);
      }
      const introspect = (token: string) =>
        t
          .http()
          .post('/api/oauth2/introspect')
          .type('form')
          .set('Authorization', basic(client.application.clientId, client.clientSecret!))
          .send({ token, token_type_hint: 'refresh_token' });
      return { ...client, branches, introspect };
    }

    /** Every token of the family revoked, one token_revoked event; `pairs` work no more. */
    async function expectFamilyRevoked(pairs: TokenPair[], refresh: (token: string) => unknown) {
      const rows = await sql<{ n: number; revoked: number }>(
        'SELECT count(*)::int AS n, count(revoked_at)::int AS revoked FROM oauth_tokens',
      );
      expect(rows).toEqual([{ n: 4, revoked: 4 }]);
      for (const pair of pairs) {
        expect((await userinfo(pair.access_token)).status).toBe(401);
        expect(await refresh(pair.refresh_token)).toMatchObject({ status: 400 });
      }
      const revoked = await sql<{ description: string }>(
        "SELECT description FROM events WHERE event_type = 'token_revoked'",
      );
      expect(revoked).toEqual([
        { description: 'refresh token reused: 4 token(s) of the family revoked' },
      ]);
    }

    it.each([
      [1, 2],
      [2, 1],
    ])(
      'branch %i rotates after the interval; branch %i is then a replay and revokes the family',
      async (winner, loser) => {
        const { branches, refresh, introspect } = await forked();
        t.clock.advance((REUSE_SECONDS + 1) * 1000);
        const moved = await refresh(branches[winner - 1].refresh_token);
        expect(moved.status).toBe(200);
        const latest = moved.body as TokenPair;
        // Only the latest refresh token of the family is live (RFC 7662 active).
        expect((await introspect(branches[loser - 1].refresh_token)).body).toEqual({
          active: false,
        });
        expect((await introspect(latest.refresh_token)).body).toMatchObject({ active: true });
        // At once, not only an interval later: the other branch is superseded.
        const res = await refresh(branches[loser - 1].refresh_token);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(SUPERSEDED);
        await expectFamilyRevoked([latest, ...branches], refresh);
      },
    );

    it('supersedes a branch that stays behind longer than the interval after the other moved', async () => {
      const { branches, refresh } = await forked();
      // Both branches within the interval (two tabs that refresh twice): still concurrency.
      const moved = await refresh(branches[0].refresh_token);
      expect(moved.status).toBe(200);
      t.clock.advance((REUSE_SECONDS + 1) * 1000);
      const res = await refresh(branches[1].refresh_token);
      expect(res.body).toEqual(SUPERSEDED);
      await expectFamilyRevoked([moved.body as TokenPair, ...branches], refresh);
    });
  });

  it('refuses a reuse within the interval by another client, and revokes nothing', async () => {
    const { first, refresh } = await tokens();
    const second = await refresh(first.refresh_token);
    expect(second.status).toBe(200);
    const other = await createApplication(t.app, {
      authMethod: 'none',
      redirectUris: [REDIRECT_URI],
    });
    const stolen = await tokenRequest(t.app, {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id: other.application.clientId,
    });
    expect(stolen.status).toBe(400);
    expect(stolen.body).toEqual({
      error: 'invalid_grant',
      error_description: 'The refresh token is invalid',
    });
    // Another client's token is unknown to it (RFC 6749 section 6): the owner is not logged out.
    await expectWorking([second.body as TokenPair], refresh);
  });
});
