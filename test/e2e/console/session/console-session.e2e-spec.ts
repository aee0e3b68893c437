import { createUser } from '../../../factories';
import { consoleClient, sessionCookieFrom } from '../../../support/console';
import {
  authorizePath,
  authorizeParams,
  browser,
  login,
  oauthSetup,
  PASSWORD,
} from '../../../support/oauth';
import { createTestApp, TestApp } from '../../../support/test-app';

/** docs/console.md, "Sessions" and "CSRF": the console signs in with the OAuth pages' session. */
describe('console session', () => {
  const start = new Date(Date.UTC(2030, 0, 1, 12, 0, 0));
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    t.clock.set(start);
  });

  const signIn = (login: string, password: string) =>
    t.http().post('/api/console/session').send({ login, password });

  it('signs in with username or email, sets the cookie and answers the session body', async () => {
    const alice = await createUser(t.app, {
      username: 'alice',
      email: 'alice@example.org',
      password: PASSWORD,
      nickname: 'Alice',
    });
    const res = await signIn('ALICE@example.org', PASSWORD);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const setCookie = (res.headers['set-cookie'] as unknown as string[]).join('\n');
    expect(setCookie).toMatch(
      /idsvc_session=[^;]+; Max-Age=\d+; Path=\/; Expires=[^;]+; HttpOnly; SameSite=Lax/,
    );
    expect(res.body).toEqual({
      user: { id: alice.id, username: 'alice', email: 'alice@example.org', nickname: 'Alice' },
      authMethod: 'password',
      signedInAt: start.toISOString(),
      csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });

    const cookie = sessionCookieFrom(res)!;
    const again = await t
      .http()
      .get('/api/console/session')
      .set('Cookie', `idsvc_session=${cookie}`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    expect((await signIn('alice', PASSWORD)).status).toBe(200);
  });

  it('refuses a wrong password or an unknown account with one 401 invalid_credentials', async () => {
    await createUser(t.app, { username: 'alice', password: PASSWORD });
    for (const [name, password] of [
      ['alice', 'wrong'],
      ['nobody', PASSWORD],
    ]) {
      const res = await signIn(name, password);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        error: 'invalid_credentials',
        message: 'The username or password is incorrect',
      });
      expect(sessionCookieFrom(res)).toBeUndefined();
    }
  });

  it('throttles failed sign-ins like the login page (429 after five)', async () => {
    await createUser(t.app, { username: 'alice', password: PASSWORD });
    for (let i = 0; i < 5; i += 1) expect((await signIn('alice', `wrong-${i}`)).status).toBe(401);
    const blocked = await signIn('alice', PASSWORD);
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toBe('rate_limited');
  });

  it('answers 400 invalid_body for a sign-in without login or password', async () => {
    for (const body of [{}, { login: 'alice' }, { login: 1, password: 'x' }, []]) {
      const res = await t.http().post('/api/console/session').send(body);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_body');
    }
  });

  it('takes JSON only (a form is 415) and refuses a foreign Origin (403 csrf_failed)', async () => {
    await createUser(t.app, { username: 'alice', password: PASSWORD });
    const form = await t
      .http()
      .post('/api/console/session')
      .type('form')
      .send({ login: 'alice', password: PASSWORD });
    expect(form.status).toBe(415);
    expect(form.body.error).toBe('unsupported_media_type');
    expect(sessionCookieFrom(form)).toBeUndefined();

    const foreign = await signIn('alice', PASSWORD).set('Origin', 'https://evil.example');
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toBe('csrf_failed');
    expect(sessionCookieFrom(foreign)).toBeUndefined();

    const own = await signIn('alice', PASSWORD).set('Origin', 'http://127.0.0.1:3000');
    expect(own.status).toBe(200);
  });

  it('answers 401 unauthenticated without a session, with an unknown cookie, and once it expired', async () => {
    const none = await t.http().get('/api/console/session');
    expect(none.status).toBe(401);
    expect(none.body).toEqual({
      error: 'unauthenticated',
      message: 'Sign in to the console first',
    });
    expect(none.headers['cache-control']).toBe('no-store');
    const unknown = await t.http().get('/api/console/session').set('Cookie', 'idsvc_session=nope');
    expect(unknown.status).toBe(401);

    await createUser(t.app, { username: 'alice', password: PASSWORD });
    const cookie = sessionCookieFrom(await signIn('alice', PASSWORD))!;
    t.clock.advance(43_200_000); // SESSION_TTL_SECONDS' default
    const expired = await t
      .http()
      .get('/api/console/session')
      .set('Cookie', `idsvc_session=${cookie}`);
    expect(expired.status).toBe(401);
  });

  it('signs out with the CSRF token only: without it 403 and the session lives on', async () => {
    const alice = await createUser(t.app, { username: 'alice', password: PASSWORD });
    const cookieValue = sessionCookieFrom(await signIn('alice', PASSWORD))!;
    const client = consoleClient(t, alice.id, cookieValue);
    const cookie = `idsvc_session=${cookieValue}`;

    for (const token of [undefined, 'wrong', consoleClient(t, alice.id, 'other').csrfToken]) {
      const req = t.http().delete('/api/console/session').set('Cookie', cookie);
      const res = await (token === undefined ? req : req.set('X-CSRF-Token', token));
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('csrf_failed');
    }
    expect((await client.request('get', '/api/console/session')).status).toBe(200);

    const out = await client.request('delete', '/api/console/session');
    expect(out.status).toBe(204);
    expect((out.headers['set-cookie'] as unknown as string[]).join('\n')).toMatch(
      /idsvc_session=;.*Expires=Thu, 01 Jan 1970/,
    );
    expect((await client.request('get', '/api/console/session')).status).toBe(401);
  });

  it('shares the session with the OAuth pages both ways', async () => {
    const { application } = await oauthSetup(t.app, { username: 'alice' });
    const params = authorizeParams({ clientId: application.clientId, challenge: 'x'.repeat(43) });

    // Signed in at the console: /authorize skips the login page.
    const cookieValue = sessionCookieFrom(await signIn('alice', PASSWORD))!;
    const authorize = await t
      .http()
      .get(authorizePath(params))
      .set('Cookie', `idsvc_session=${cookieValue}`);
    expect(authorize.status).toBe(302);
    expect(authorize.headers.location).not.toMatch(/^\/oauth2\/login/);

    // Signed in at the login page: the console knows the user, as a password sign-in.
    const agent = browser(t.app);
    const loggedIn = await login(agent, {
      clientId: application.clientId,
      challenge: 'x'.repeat(43),
    });
    expect(loggedIn.status).toBe(303);
    const session = await agent.get('/api/console/session');
    expect(session.status).toBe(200);
    expect(session.body.user.username).toBe('alice');
    expect(session.body.authMethod).toBe('password');
  });
});
