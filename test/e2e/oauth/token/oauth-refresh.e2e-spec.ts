import {
  authorizeInteractively,
  basic,
  browser,
  oauthSetup,
  pkce,
  REDIRECT_URI,
  tokenRequest,
} from '../../../support/oauth';
import { createApplication } from '../../../factories';
import { createTestApp, TestApp } from '../../../support/test-app';

// With the reuse interval off (REFRESH_TOKEN_REUSE_SECONDS=0): every presentation of a rotated
// token is a replay. The interval itself: oauth-refresh-reuse.e2e-spec.ts.
describe('Refresh token rotation (reuse interval off)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { REFRESH_TOKEN_REUSE_SECONDS: '0' } });
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  async function tokens(scope = 'read email') {
    const setup = await oauthSetup(t.app, { authMethod: 'none' });
    const { verifier, challenge } = pkce();
    const { code } = await authorizeInteractively(browser(t.app), {
      clientId: setup.application.clientId,
      challenge,
      scope,
    });
    const res = await tokenRequest(t.app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: setup.application.clientId,
      code_verifier: verifier,
    });
    expect(res.status).toBe(200);
    const refresh = (refreshToken: string, extra: Record<string, string> = {}) =>
      tokenRequest(t.app, {
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
        client_id: setup.application.clientId,
        ...extra,
      });
    return { ...setup, first: res.body, refresh };
  }
  const userinfo = (accessToken: string) =>
    t.http().get('/api/oauth2/userinfo').set('Authorization', `Bearer ${accessToken}`);

  it('returns a new access and refresh token on every refresh, with token_refreshed events', async () => {
    const { first, refresh } = await tokens();
    const second = await refresh(first.refresh_token);
    expect(second.status).toBe(200);
    expect(second.headers['cache-control']).toBe('no-store');
    expect(second.body).toMatchObject({
      token_type: 'bearer',
      expires_in: 3600,
      scope: 'read email',
    });
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect(second.body.access_token).not.toBe(first.access_token);
    const third = await refresh(second.body.refresh_token);
    expect(third.status).toBe(200);
    expect((await userinfo(third.body.access_token)).status).toBe(200);
    const events = await t.dataSource.query(
      "SELECT event_type FROM events WHERE event_type LIKE 'token_%' ORDER BY id",
    );
    expect(events.map((e: { event_type: string }) => e.event_type)).toEqual([
      'token_issued',
      'token_refreshed',
      'token_refreshed',
    ]);
  });

  it('revokes the whole family when a rotated-out refresh token is presented again', async () => {
    const { first, refresh } = await tokens();
    const second = await refresh(first.refresh_token);
    const replay = await refresh(first.refresh_token);
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({
      error: 'invalid_grant',
      error_description: 'The refresh token was already used; its token family has been revoked',
    });
    expect((await refresh(second.body.refresh_token)).body.error).toBe('invalid_grant');
    expect((await userinfo(second.body.access_token)).status).toBe(401);
    expect((await userinfo(first.access_token)).status).toBe(401);
    const revoked = await t.dataSource.query(
      "SELECT description FROM events WHERE event_type = 'token_revoked'",
    );
    expect(revoked).toEqual([
      { description: 'refresh token reused: 2 token(s) of the family revoked' },
    ]);
  });

  it('lets exactly one of twenty concurrent refreshes of one token succeed; the rest replay it', async () => {
    const { first, refresh } = await tokens();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => refresh(first.refresh_token)),
    );
    const statuses = results.map((res) => res.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(19);
    for (const res of results.filter((r) => r.status === 400))
      expect(res.body.error).toBe('invalid_grant');
    // The first loser found the token rotated and revoked the family, the winner's pair included.
    const winner = results.find((r) => r.status === 200)!;
    expect((await userinfo(winner.body.access_token)).status).toBe(401);
    const rows = await t.dataSource.query(
      'SELECT count(*)::int AS n, count(revoked_at)::int AS revoked FROM oauth_tokens',
    );
    expect(rows).toEqual([{ n: 2, revoked: 2 }]);
    const revoked = await t.dataSource.query(
      "SELECT description FROM events WHERE event_type = 'token_revoked'",
    );
    expect(revoked).toEqual([
      { description: 'refresh token reused: 2 token(s) of the family revoked' },
    ]);
  });

  it('binds refresh tokens to their client', async () => {
    const { first } = await tokens();
    const other = await createApplication(t.app, {
      authMethod: 'none',
      redirectUris: [REDIRECT_URI],
    });
    const res = await tokenRequest(t.app, {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id: other.application.clientId,
    });
    expect(res.body).toEqual({
      error: 'invalid_grant',
      error_description: 'The refresh token is invalid',
    });
  });

  it('narrows but never widens the scope', async () => {
    const { first, refresh } = await tokens('read email');
    const wider = await refresh(first.refresh_token, { scope: 'read email profile' });
    expect(wider.body).toEqual({
      error: 'invalid_scope',
      error_description: 'The requested scope exceeds the original grant',
    });
    // The refused request did not spend the refresh token.
    const narrower = await refresh(first.refresh_token, { scope: 'email' });
    expect(narrower.status).toBe(200);
    expect(narrower.body.scope).toBe('email');
    const again = await refresh(narrower.body.refresh_token, { scope: 'read' });
    expect(again.body.error).toBe('invalid_scope');
  });

  it('refuses refresh for a disabled relation or a revoked authorization', async () => {
    const { first, refresh, user } = await tokens();
    await t.dataSource.query('UPDATE app_users SET enabled = false WHERE user_id = $1', [user.id]);
    expect((await refresh(first.refresh_token)).body).toEqual({
      error: 'invalid_grant',
      error_description: "The user's access to this application is disabled",
    });
    await t.dataSource.query(
      'UPDATE app_users SET enabled = true, granted_scope = NULL WHERE user_id = $1',
      [user.id],
    );
    expect((await refresh(first.refresh_token)).body).toEqual({
      error: 'invalid_grant',
      error_description: 'The authorization has been revoked',
    });
  });

  it('expires refresh tokens after REFRESH_TOKEN_TTL_SECONDS (30 days by default)', async () => {
    const { first, refresh } = await tokens();
    t.clock.advance(30 * 24 * 3600 * 1000);
    expect((await refresh(first.refresh_token)).body).toEqual({
      error: 'invalid_grant',
      error_description: 'The refresh token has expired',
    });
  });

  it('refuses an unknown refresh token and a missing one', async () => {
    const { refresh, application } = await tokens();
    expect((await refresh('x'.repeat(43))).body.error).toBe('invalid_grant');
    const missing = await tokenRequest(t.app, {
      grant_type: 'refresh_token',
      client_id: application.clientId,
    });
    expect(missing.body).toEqual({
      error: 'invalid_request',
      error_description: 'refresh_token is required',
    });
  });

  it('authenticates secret clients on refresh too', async () => {
    const setup = await oauthSetup(t.app, { authMethod: 'secret', username: 'sam' });
    const { code } = await authorizeInteractively(browser(t.app), {
      clientId: setup.application.clientId,
      username: 'sam',
    });
    const auth = basic(setup.application.clientId, setup.clientSecret!);
    const first = await tokenRequest(
      t.app,
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI },
      auth,
    );
    const anonymous = await tokenRequest(t.app, {
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token,
      client_id: setup.application.clientId,
    });
    expect(anonymous.status).toBe(401);
    const ok = await tokenRequest(
      t.app,
      { grant_type: 'refresh_token', refresh_token: first.body.refresh_token },
      auth,
    );
    expect(ok.status).toBe(200);
  });
});
