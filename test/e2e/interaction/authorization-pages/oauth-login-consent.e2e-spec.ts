import { createApplication } from '../../../factories';
import {
  authorizeInteractively,
  authorizeParams,
  authorizePath,
  browser,
  hiddenInput,
  ISSUER,
  login,
  oauthSetup,
  pkce,
  query,
  REDIRECT_URI,
} from '../../../support/oauth';
import { createTestApp, TestApp } from '../../../support/test-app';

describe('OAuth login and consent pages', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  it('sends a signed-out browser to the login page by an opaque request id, with the security headers', async () => {
    const { application } = await oauthSetup(t.app);
    const agent = browser(t.app);
    const start = await agent.get(
      authorizePath(
        authorizeParams({ clientId: application.clientId, challenge: pkce().challenge }),
      ),
    );
    expect(start.status).toBe(302);
    // The request travels sealed (AES-256-GCM): opaque to the browser, nothing stored.
    expect(start.headers.location).toMatch(/^\/oauth2\/login\?request=v1\.[A-Za-z0-9_-]+$/);
    const page = await agent.get(start.headers.location);
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.text).toContain('name="username"');
    expect(page.text).toContain('name="password"');
    expect(hiddenInput(page.text, 'csrf_token')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const csrfCookie = (page.headers['set-cookie'] as unknown as string[]).find((c) =>
      c.startsWith('idsvc_csrf='),
    );
    expect(csrfCookie).toMatch(/HttpOnly/);
    expect(csrfCookie).toMatch(/SameSite=Lax/);
  });

  it('logs in, shows consent, and on approval records the relation and events and redirects with code, state and iss', async () => {
    const { application, user } = await oauthSetup(t.app);
    const agent = browser(t.app);
    const afterLogin = await login(agent, {
      clientId: application.clientId,
      challenge: pkce().challenge,
      scope: 'read email',
    });
    expect(afterLogin.status).toBe(303);
    const session = (afterLogin.headers['set-cookie'] as unknown as string[]).find((c) =>
      c.startsWith('idsvc_session='),
    );
    expect(session).toMatch(/HttpOnly/);
    expect(session).toMatch(/SameSite=Lax/);
    expect(session).not.toMatch(/Secure/);
    expect(afterLogin.headers.location).toMatch(/^\/oauth2\/consent\?request=/);

    const consent = await agent.get(afterLogin.headers.location);
    expect(consent.status).toBe(200);
    expect(consent.text).toContain('Demo App');
    expect(consent.text).toContain('name="decision" value="approve"');
    expect(consent.text).toContain('name="decision" value="deny"');
    expect(consent.text).toContain('<code>read</code>');
    expect(consent.text).toContain('<code>email</code>');

    const res = await agent
      .post('/oauth2/consent')
      .type('form')
      .send({
        request: hiddenInput(consent.text, 'request'),
        csrf_token: hiddenInput(consent.text, 'csrf_token'),
        decision: 'approve',
      });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.location);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(location.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(location.searchParams.get('state')).toBe('st-123');
    expect(location.searchParams.get('iss')).toBe(ISSUER);

    const [relation] = await t.dataSource.query(
      'SELECT "group", auth_count, granted_scope, first_auth_at, last_auth_at FROM app_users WHERE user_id = $1',
      [user.id],
    );
    expect(relation).toEqual({
      group: 't0',
      auth_count: 1,
      granted_scope: 'read email',
      first_auth_at: t.clock.now(),
      last_auth_at: t.clock.now(),
    });
    const events = await t.dataSource.query(
      'SELECT event_type, scope, user_id FROM events ORDER BY id',
    );
    expect(events).toEqual([
      { event_type: 'authorization_granted', scope: 'read email', user_id: user.id },
      { event_type: 'code_issued', scope: 'read email', user_id: user.id },
    ]);
    const [{ last_login_at }] = await t.dataSource.query(
      'SELECT last_login_at FROM users WHERE id = $1',
      [user.id],
    );
    expect(last_login_at).toEqual(t.clock.now());
    // The request travelled sealed; answering it left only its single-use record.
    expect(
      await t.dataSource.query('SELECT count(*)::int AS n FROM oauth_spent_authorization_requests'),
    ).toEqual([{ n: 1 }]);
  });

  it('answers access_denied when the user denies, and records nothing', async () => {
    const { application } = await oauthSetup(t.app);
    const agent = browser(t.app);
    const afterLogin = await login(agent, {
      clientId: application.clientId,
      challenge: pkce().challenge,
    });
    const consent = await agent.get(afterLogin.headers.location);
    const res = await agent
      .post('/oauth2/consent')
      .type('form')
      .send({
        request: hiddenInput(consent.text, 'request'),
        csrf_token: hiddenInput(consent.text, 'csrf_token'),
        decision: 'deny',
      });
    expect(res.status).toBe(303);
    expect(query(res.headers.location)).toEqual({
      error: 'access_denied',
      error_description: 'The user denied the authorization request',
      state: 'st-123',
      iss: ISSUER,
    });
    expect(await t.dataSource.query('SELECT count(*)::int AS n FROM app_users')).toEqual([
      { n: 0 },
    ]);
    expect(await t.dataSource.query('SELECT count(*)::int AS n FROM events')).toEqual([{ n: 0 }]);
  });

  it('skips consent when an earlier grant covers the scopes, and counts the authorization', async () => {
    const { application, user } = await oauthSetup(t.app);
    const agent = browser(t.app);
    const first = await authorizeInteractively(agent, {
      clientId: application.clientId,
      challenge: pkce().challenge,
      scope: 'read email',
    });
    expect(first.code).toBeDefined();
    t.clock.advance(60_000);
    const again = await agent.get(
      authorizePath(
        authorizeParams({
          clientId: application.clientId,
          challenge: pkce().challenge,
          scope: 'email',
        }),
      ),
    );
    expect(again.status).toBe(302);
    expect(query(again.headers.location).code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [relation] = await t.dataSource.query(
      'SELECT auth_count, first_auth_at, last_auth_at FROM app_users WHERE user_id = $1',
      [user.id],
    );
    expect(relation.auth_count).toBe(2);
    expect(relation.last_auth_at.getTime() - relation.first_auth_at.getTime()).toBe(60_000);
    // A wider scope than granted asks again.
    const wider = await agent.get(
      authorizePath(
        authorizeParams({
          clientId: application.clientId,
          challenge: pkce().challenge,
          scope: 'read profile',
        }),
      ),
    );
    expect(wider.headers.location).toMatch(/^\/oauth2\/consent\?request=/);
  });

  it('rejects a login or consent form without the CSRF token of this browser', async () => {
    const { application } = await oauthSetup(t.app);
    const agent = browser(t.app);
    const start = await agent.get(
      authorizePath(
        authorizeParams({ clientId: application.clientId, challenge: pkce().challenge }),
      ),
    );
    const page = await agent.get(start.headers.location);
    const request = hiddenInput(page.text, 'request');
    const forged = await agent
      .post('/oauth2/login')
      .type('form')
      .send({
        request,
        csrf_token: 'x'.repeat(43),
        username: 'alice',
        password: 'correct horse battery staple',
      });
    expect(forged.status).toBe(403);
    // Another browser (no CSRF cookie) replaying a valid token is refused too.
    const other = browser(t.app);
    const replay = await other
      .post('/oauth2/login')
      .type('form')
      .send({
        request,
        csrf_token: hiddenInput(page.text, 'csrf_token'),
        username: 'alice',
        password: 'correct horse battery staple',
      });
    expect(replay.status).toBe(403);
    expect(replay.headers['set-cookie']).toBeUndefined();
  });

  it('gives one generic message for unknown users and wrong passwords, and escapes what it echoes', async () => {
    const { application } = await oauthSetup(t.app);
    const wrong = await login(browser(t.app), {
      clientId: application.clientId,
      challenge: pkce().challenge,
      password: 'wrong password!',
    });
    const unknown = await login(browser(t.app), {
      clientId: application.clientId,
      challenge: pkce().challenge,
      username: '<script>x</script>',
    });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.text).toContain('The username or password is incorrect.');
    }
    expect(unknown.text).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(unknown.text).not.toContain('<script>x');
  });

  it('denies a disabled relation and a full user quota with access_denied', async () => {
    const { application, user } = await oauthSetup(t.app);
    await t.dataSource.query(
      'INSERT INTO app_users (application_id, user_id, enabled) VALUES ($1, $2, false)',
      [application.id, user.id],
    );
    const denied = await login(browser(t.app), {
      clientId: application.clientId,
      challenge: pkce().challenge,
    });
    expect(query(denied.headers.location)).toMatchObject({
      error: 'access_denied',
      state: 'st-123',
      iss: ISSUER,
    });

    const full = await createApplication(t.app, {
      authMethod: 'none',
      redirectUris: [REDIRECT_URI],
    });
    await t.dataSource.query('UPDATE applications SET user_quota = 1 WHERE id = $1', [
      full.application.id,
    ]);
    await t.dataSource.query('INSERT INTO app_users (application_id, user_id) VALUES ($1, $2)', [
      full.application.id,
      user.id,
    ]);
    const { user: other } = await oauthSetup(t.app, { username: 'dave' });
    const quota = await login(browser(t.app), {
      clientId: full.application.clientId,
      challenge: pkce().challenge,
      username: 'dave',
    });
    expect(query(quota.headers.location)).toMatchObject({
      error: 'access_denied',
      error_description: 'The application has reached its user quota',
    });
    expect(
      await t.dataSource.query('SELECT count(*)::int AS n FROM app_users WHERE user_id = $1', [
        other.id,
      ]),
    ).toEqual([{ n: 0 }]);
  });

  it('shows an expired-request page for an unknown request id and logs out', async () => {
    const page = await browser(t.app).get('/oauth2/login?request=nope');
    expect(page.status).toBe(400);
    expect(page.text).toContain('Request expired');
    const { application } = await oauthSetup(t.app);
    const agent = browser(t.app);
    await authorizeInteractively(agent, {
      clientId: application.clientId,
      challenge: pkce().challenge,
    });
    const signOut = await agent.get('/oauth2/logout');
    const out = await agent
      .post('/oauth2/logout')
      .type('form')
      .send({ csrf_token: hiddenInput(signOut.text, 'csrf_token') });
    expect(out.status).toBe(200);
    const again = await agent.get(
      authorizePath(
        authorizeParams({ clientId: application.clientId, challenge: pkce().challenge }),
      ),
    );
    expect(again.headers.location).toMatch(/^\/oauth2\/login\?request=/);
  });
});
