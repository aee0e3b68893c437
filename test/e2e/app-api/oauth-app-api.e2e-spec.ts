import { createApiKey } from '../../factories';
import {
  exchangeCode,
  authorizeInteractively,
  authorizeParams,
  authorizePath,
  browser,
  ISSUER,
  oauthSetup,
  pkce,
  query,
  tokenRequest,
} from '../../support/oauth';
import { createTestApp, TestApp } from '../../support/test-app';

/** The OAuth flows cross-checked through the application API (/api/v1/app). */
describe('OAuth flows seen through the application API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  it('revocations end tokens at once, and events, relation counters and stats match the flows exactly', async () => {
    const { application, user } = await oauthSetup(t.app);
    const { plaintext: key } = await createApiKey(t.app, application.id, [
      'user:read',
      'user:write',
      'relation:revoke',
      'stats:read',
    ]);
    const api = (method: 'get' | 'patch' | 'post', path: string) =>
      t.http()[method](`/api/v1/app${path}`).set('Authorization', `Bearer ${key}`);
    const agent = browser(t.app);
    const clientId = application.clientId;
    const exchange = (code: string, verifier: string) =>
      exchangeCode(t.app, clientId, code, verifier);
    const silent = async () => {
      const { verifier, challenge } = pkce();
      const res = await agent.get(
        authorizePath(authorizeParams({ clientId, challenge, extra: { prompt: 'none' } })),
      );
      expect(res.status).toBe(302);
      return { result: query(res.headers.location), verifier };
    };
    const userinfo = (token: string) =>
      t.http().get('/api/oauth2/userinfo').set('Authorization', `Bearer ${token}`);
    const start = t.clock.now();

    // 1. Interactive authorization, code exchange, one refresh.
    const first = pkce();
    const { code } = await authorizeInteractively(agent, { clientId, challenge: first.challenge });
    const tokens1 = await exchange(code, first.verifier);
    const refreshed = await tokenRequest(t.app, {
      grant_type: 'refresh_token',
      refresh_token: tokens1.refresh_token,
      client_id: clientId,
    });
    expect(refreshed.status).toBe(200);

    // 2. Silent authorization a minute later.
    t.clock.advance(60_000);
    const s1 = await silent();
    const tokens2 = await exchange(s1.result.code, s1.verifier);
    expect((await userinfo(tokens2.access_token)).status).toBe(200);

    // 3. Disabled through the API (a second later): the token fails on the next request,
    // prompt=none is access_denied.
    t.clock.advance(1000);
    const disabled = await api('patch', `/users/${user.id}`).send({ enabled: false });
    expect(disabled.status).toBe(200);
    expect((await userinfo(tokens2.access_token)).body.error).toBe('invalid_token');
    expect((await userinfo(refreshed.body.access_token)).status).toBe(401);
    const denied = await silent();
    expect(denied.result).toEqual({
      error: 'access_denied',
      error_description: 'Your access to this application is disabled',
      state: 'st-123',
      iss: ISSUER,
    });

    // 4. Enabled again: silent authorization works (the consent stands), old tokens stay dead.
    expect((await api('patch', `/users/${user.id}`).send({ enabled: true })).status).toBe(200);
    t.clock.advance(60_000);
    const s2 = await silent();
    const tokens3 = await exchange(s2.result.code, s2.verifier);
    expect((await userinfo(tokens2.access_token)).status).toBe(401);
    expect((await userinfo(tokens3.access_token)).status).toBe(200);

    // 5. Revoked through the API: the token fails, prompt=none is consent_required.
    t.clock.advance(1000);
    const revoked = await api('post', `/users/${user.id}/revoke`);
    expect(revoked.body).toEqual({ revoked: true, revokedTokens: 1 });
    expect((await userinfo(tokens3.access_token)).body.error).toBe('invalid_token');
    const refreshAfterRevoke = await tokenRequest(t.app, {
      grant_type: 'refresh_token',
      refresh_token: tokens3.refresh_token,
      client_id: clientId,
    });
    expect(refreshAfterRevoke.body.error).toBe('invalid_grant');
    const consent = await silent();
    expect(consent.result).toEqual({
      error: 'consent_required',
      error_description: 'The user has not authorized this application',
      state: 'st-123',
      iss: ISSUER,
    });

    const events = await api('get', '/events?limit=200');
    expect(events.status).toBe(200);
    expect(events.body.items.map((e: { eventType: string }) => e.eventType).reverse()).toEqual([
      'authorization_granted',
      'code_issued',
      'token_issued',
      'token_refreshed',
      'authorization_granted',
      'code_issued',
      'token_issued',
      'token_revoked',
      'token_revoked',
      'token_revoked',
      'authorization_granted',
      'code_issued',
      'token_issued',
      'token_revoked',
      'authorization_revoked',
    ]);
    for (const event of events.body.items) {
      expect(event).toMatchObject({
        protocol: 'oauth2',
        status: 'success',
        userId: user.id,
        scope: 'read',
      });
    }

    const view = await api('get', `/users/${user.id}`);
    expect(view.body).toMatchObject({
      userId: user.id,
      username: 'alice',
      group: 't0',
      enabled: true,
      authCount: 3,
      firstAuthAt: start.toISOString(),
      lastAuthAt: new Date(start.getTime() + 121_000).toISOString(),
      lastLoginAt: start.toISOString(),
    });
    const list = await api('get', '/users');
    expect(list.body.total).toBe(1);
    expect(list.body.items[0].authCount).toBe(3);

    const stats = await api('get', '/stats');
    expect(stats.body).toMatchObject({
      totalUsers: 1,
      totalAuths: 3,
      activeUsers30d: 1,
      newUsers30d: 1,
    });
    const today = t.clock.now().toISOString().slice(0, 10);
    expect(stats.body.dailyAuthCounts.find((d: { date: string }) => d.date === today)).toEqual({
      date: today,
      count: 3,
    });
  });
});
