import {
  authorizeInteractively,
  authorizeParams,
  authorizePath,
  browser,
  exchangeCode,
  expectStatus,
  hiddenInput,
  oauthSetup,
  pkce,
  query,
  type Agent,
} from '../../../support/oauth';
import { createTestApp, TestApp } from '../../../support/test-app';

/** Logout needs the sign-out form's CSRF token; userinfo ids are exact. */
describe('Logout CSRF and exact userinfo ids', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  /** A signed-in browser that has authorized the app, and the app's client id. */
  async function signedIn(): Promise<{ agent: Agent; clientId: string }> {
    const { application } = await oauthSetup(t.app);
    const agent = browser(t.app);
    await authorizeInteractively(agent, {
      clientId: application.clientId,
      challenge: pkce().challenge,
    });
    return { agent, clientId: application.clientId };
  }

  /** prompt=none: a code while the session stands, login_required once it is gone. */
  async function silentAnswer(agent: Agent, clientId: string): Promise<Record<string, string>> {
    const res = await agent.get(
      authorizePath(
        authorizeParams({ clientId, challenge: pkce().challenge, extra: { prompt: 'none' } }),
      ),
    );
    expectStatus(res, 302);
    return query(res.headers.location);
  }

  it('signs out with the token of the sign-out page', async () => {
    const { agent, clientId } = await signedIn();
    const page = await agent.get('/oauth2/logout');
    expect(page.status).toBe(200);
    expect(page.headers['x-frame-options']).toBe('DENY');
    const out = await agent
      .post('/oauth2/logout')
      .type('form')
      .send({ csrf_token: hiddenInput(page.text, 'csrf_token') });
    expect(out.status).toBe(200);
    expect(out.text).toContain('You are signed out.');
    expect(await silentAnswer(agent, clientId)).toMatchObject({ error: 'login_required' });
  });

  it('refuses a forged sign-out (no token, a wrong token, another browser’s token) and keeps the session', async () => {
    const { agent, clientId } = await signedIn();
    const stranger = browser(t.app);
    const strangersToken = hiddenInput((await stranger.get('/oauth2/logout')).text, 'csrf_token');
    for (const form of [{}, { csrf_token: 'forged' }, { csrf_token: strangersToken }]) {
      const res = await agent.post('/oauth2/logout').type('form').send(form);
      expect(res.status).toBe(403);
      expect(res.text).toContain('Form expired');
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const answer = await silentAnswer(agent, clientId);
    expect(answer.error).toBeUndefined();
    expect(answer.code).toEqual(expect.any(String));
  });

  /** A token for a user created with the given id (the users id sequence is set first). */
  async function tokenForUserId(id: string): Promise<string> {
    await t.dataSource.query(`SELECT setval(pg_get_serial_sequence('users', 'id'), $1, false)`, [
      id,
    ]);
    const { application, user } = await oauthSetup(t.app);
    expect(user.id).toBe(id);
    const { verifier, challenge } = pkce();
    const { code } = await authorizeInteractively(browser(t.app), {
      clientId: application.clientId,
      challenge,
    });
    return (await exchangeCode(t.app, application.clientId, code, verifier)).access_token;
  }

  it('returns the largest JSON-safe user id exactly', async () => {
    const token = await tokenForUserId('9007199254740991');
    const res = await t.http().get('/api/oauth2/userinfo').set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('"id":9007199254740991,');
  });

  it('never answers a rounded id: an id beyond 2^53 - 1 is a server error', async () => {
    const token = await tokenForUserId('9007199254740993');
    const res = await t.http().get('/api/oauth2/userinfo').set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(500);
    expect(res.body.error).toBe('server_error');
    expect(res.text).not.toContain('9007199254740992');
  });
});
