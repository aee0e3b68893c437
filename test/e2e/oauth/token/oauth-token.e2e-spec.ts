import { createApplication } from '../../../factories';
import {
  Agent,
  authorizeInteractively,
  authorizeParams,
  authorizePath,
  basic,
  browser,
  oauthSetup,
  query,
  REDIRECT_URI,
  tokenRequest,
} from '../../../support/oauth';
import { createTestApp, TestApp } from '../../../support/test-app';

describe('OAuth token endpoint and client authentication', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  async function secretClient() {
    const setup = await oauthSetup(t.app, { authMethod: 'secret' });
    const agent = browser(t.app);
    const first = await authorizeInteractively(agent, { clientId: setup.application.clientId });
    const nextCode = async (a: Agent = agent): Promise<string> => {
      const res = await a.get(
        authorizePath(authorizeParams({ clientId: setup.application.clientId })),
      );
      return query(res.headers.location).code;
    };
    return { ...setup, clientSecret: setup.clientSecret!, code: first.code, nextCode };
  }

  it('exchanges a code with HTTP Basic and answers the contract token response, not cacheable', async () => {
    const { application, clientSecret, code, user } = await secretClient();
    const res = await tokenRequest(
      t.app,
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI },
      basic(application.clientId, clientSecret),
    );
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.pragma).toBe('no-cache');
    expect(Object.keys(res.body).sort()).toEqual([
      'access_token',
      'expires_in',
      'refresh_token',
      'scope',
      'token_type',
    ]);
    expect(res.body).toMatchObject({ token_type: 'bearer', expires_in: 3600, scope: 'read' });
    expect(res.body.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.body.refresh_token).not.toBe(res.body.access_token);
    const rows = await t.dataSource.query(
      'SELECT access_token_hash, refresh_token_hash, user_id, access_expires_at FROM oauth_tokens',
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].access_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].access_token_hash).not.toContain(res.body.access_token);
    expect(rows[0].user_id).toBe(user.id);
    expect(rows[0].access_expires_at.getTime()).toBe(t.clock.now().getTime() + 3600_000);
    const events = await t.dataSource.query(
      "SELECT event_type, scope FROM events WHERE event_type = 'token_issued'",
    );
    expect(events).toEqual([{ event_type: 'token_issued', scope: 'read' }]);
  });

  it('accepts client_secret_post', async () => {
    const { application, clientSecret, code } = await secretClient();
    const res = await tokenRequest(t.app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: application.clientId,
      client_secret: clientSecret,
    });
    expect(res.status).toBe(200);
  });

  it('refuses Basic and client_secret together with invalid_request', async () => {
    const { application, clientSecret, code } = await secretClient();
    const res = await tokenRequest(
      t.app,
      {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        client_id: application.clientId,
        client_secret: clientSecret,
      },
      basic(application.clientId, clientSecret),
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'invalid_request',
      error_description: 'Use either HTTP Basic or client_secret in the body, not both',
    });
  });

  it('answers 401 invalid_client with WWW-Authenticate for a wrong secret, an unknown client or no credentials', async () => {
    const { application, code } = await secretClient();
    const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI };
    const attempts = [
      await tokenRequest(t.app, form, basic(application.clientId, 'wrong-secret')),
      await tokenRequest(t.app, {
        ...form,
        client_id: application.clientId,
        client_secret: 'wrong',
      }),
      await tokenRequest(t.app, form, basic('no-such-client', 'whatever')),
      await tokenRequest(t.app, { ...form, client_id: application.clientId }),
      await tokenRequest(t.app, form),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('invalid_client');
      expect(res.headers['www-authenticate']).toBe('Basic realm="oauth2", charset="UTF-8"');
    }
    // The code was never consumed by the failed attempts.
    expect(
      await t.dataSource.query(
        'SELECT count(*)::int AS n FROM oauth_codes WHERE consumed_at IS NOT NULL',
      ),
    ).toEqual([{ n: 0 }]);
  });

  it('takes application/x-www-form-urlencoded only, and rejects unknown grant types and repeated parameters', async () => {
    const { application, clientSecret, code } = await secretClient();
    const json = await t
      .http()
      .post('/api/oauth2/token')
      .set('Authorization', basic(application.clientId, clientSecret))
      .send({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI });
    expect(json.status).toBe(400);
    expect(json.body).toEqual({
      error: 'invalid_request',
      error_description: 'Content-Type must be application/x-www-form-urlencoded',
    });
    const password = await tokenRequest(
      t.app,
      { grant_type: 'password', username: 'a', password: 'b' },
      basic(application.clientId, clientSecret),
    );
    expect(password.status).toBe(400);
    expect(password.body.error).toBe('unsupported_grant_type');
    const missing = await tokenRequest(t.app, { code }, basic(application.clientId, clientSecret));
    expect(missing.body).toEqual({
      error: 'invalid_request',
      error_description: 'grant_type is required',
    });
    const repeated = await t
      .http()
      .post('/api/oauth2/token')
      .type('form')
      .set('Authorization', basic(application.clientId, clientSecret))
      .send(
        `grant_type=authorization_code&code=${code}&code=${code}&redirect_uri=${encodeURIComponent(REDIRECT_URI)}`,
      );
    expect(repeated.status).toBe(400);
    expect(repeated.body.error).toBe('invalid_request');
  });

  it('binds the code to its client and redirect_uri, and spends it on failure', async () => {
    const { application, clientSecret, code, nextCode } = await secretClient();
    const other = await createApplication(t.app, { redirectUris: [REDIRECT_URI] });
    const stolen = await tokenRequest(
      t.app,
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI },
      basic(other.application.clientId, other.clientSecret!),
    );
    expect(stolen.body).toEqual({
      error: 'invalid_grant',
      error_description: 'The authorization code was issued to another client',
    });
    const code2 = await nextCode();
    const wrongUri = await tokenRequest(
      t.app,
      { grant_type: 'authorization_code', code: code2, redirect_uri: 'http://127.0.0.1:8123/cb' },
      basic(application.clientId, clientSecret),
    );
    expect(wrongUri.body).toEqual({
      error: 'invalid_grant',
      error_description: 'redirect_uri does not match the authorization request',
    });
    const retry = await tokenRequest(
      t.app,
      { grant_type: 'authorization_code', code: code2, redirect_uri: REDIRECT_URI },
      basic(application.clientId, clientSecret),
    );
    expect(retry.status).toBe(400);
    expect(retry.body.error).toBe('invalid_grant');
  });

  it('expires codes after AUTH_CODE_TTL_SECONDS (60 s by default)', async () => {
    const { application, clientSecret, code, nextCode } = await secretClient();
    t.clock.advance(60_000);
    const late = await tokenRequest(
      t.app,
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI },
      basic(application.clientId, clientSecret),
    );
    expect(late.body).toEqual({
      error: 'invalid_grant',
      error_description: 'The authorization code has expired',
    });
    const fresh = await nextCode();
    t.clock.advance(59_000);
    const inTime = await tokenRequest(
      t.app,
      { grant_type: 'authorization_code', code: fresh, redirect_uri: REDIRECT_URI },
      basic(application.clientId, clientSecret),
    );
    expect(inTime.status).toBe(200);
  });

  it('revokes the tokens issued from a code when the code is replayed', async () => {
    const { application, clientSecret, code } = await secretClient();
    const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI };
    const first = await tokenRequest(t.app, form, basic(application.clientId, clientSecret));
    expect(first.status).toBe(200);
    const userinfo = () =>
      t
        .http()
        .get('/api/oauth2/userinfo')
        .set('Authorization', `Bearer ${first.body.access_token}`);
    expect((await userinfo()).status).toBe(200);
    const replay = await tokenRequest(t.app, form, basic(application.clientId, clientSecret));
    expect(replay.status).toBe(400);
    expect(replay.body).toEqual({
      error: 'invalid_grant',
      error_description: 'The authorization code is invalid, expired or already used',
    });
    expect((await userinfo()).status).toBe(401);
    const refresh = await tokenRequest(
      t.app,
      { grant_type: 'refresh_token', refresh_token: first.body.refresh_token },
      basic(application.clientId, clientSecret),
    );
    expect(refresh.body.error).toBe('invalid_grant');
    const events = await t.dataSource.query(
      "SELECT event_type, description FROM events WHERE event_type = 'token_revoked'",
    );
    expect(events).toEqual([
      { event_type: 'token_revoked', description: 'authorization code reused: 1 token(s) revoked' },
    ]);
  });

  it('lets exactly one of twenty concurrent redemptions of one code succeed', async () => {
    const { application, clientSecret, code } = await secretClient();
    const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI };
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        tokenRequest(t.app, form, basic(application.clientId, clientSecret)),
      ),
    );
    const statuses = results.map((res) => res.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(19);
    for (const res of results.filter((r) => r.status === 400))
      expect(res.body.error).toBe('invalid_grant');
    const [{ n }] = await t.dataSource.query('SELECT count(*)::int AS n FROM oauth_tokens');
    expect(n).toBe(1);
  });

  it('refuses a disabled application with unauthorized_client', async () => {
    const { application, clientSecret, code } = await secretClient();
    await t.dataSource.query('UPDATE applications SET enabled = false WHERE id = $1', [
      application.id,
    ]);
    const res = await tokenRequest(
      t.app,
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI },
      basic(application.clientId, clientSecret),
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'unauthorized_client',
      error_description: 'The application is disabled',
    });
  });
});
