import {
  authorizeInteractively,
  authorizeParams,
  authorizePath,
  browser,
  ISSUER,
  oauthSetup,
  pkce,
  query,
  REDIRECT_URI,
  type Agent,
} from '../../../support/oauth';
import { createTestApp, TestApp } from '../../../support/test-app';

// OIDC Core 3.1.2.1: nonce and max_age at the authorization endpoint.
describe('OpenID Connect authorization request (nonce, max_age)', () => {
  let t: TestApp;
  let clientId: string;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    clientId = (await oauthSetup(t.app)).application.clientId;
  });

  const authorize = (agent: Agent, scope: string, extra: Record<string, string>) =>
    agent.get(
      authorizePath(authorizeParams({ clientId, scope, challenge: pkce().challenge, extra })),
    );
  const signIn = async (agent: Agent) =>
    authorizeInteractively(agent, { clientId, scope: 'openid', challenge: pkce().challenge });
  const codeRow = async (): Promise<{ nonce: string | null; auth_time: Date | null }> =>
    (
      await t.dataSource.query<{ nonce: string | null; auth_time: Date | null }[]>(
        'SELECT nonce, auth_time FROM oauth_codes ORDER BY id DESC LIMIT 1',
      )
    )[0];

  it.each(['abc', '-1', '1.5', '', '12345678901'])(
    'redirects invalid_request for max_age=%j in an openid request',
    async (maxAge) => {
      const res = await authorize(browser(t.app), 'openid', { max_age: maxAge });
      expect(res.status).toBe(302);
      expect(query(res.headers.location)).toEqual({
        error: 'invalid_request',
        error_description: 'max_age must be a non-negative integer of seconds',
        state: 'st-123',
        iss: ISSUER,
      });
    },
  );

  it('refuses a nonce longer than 1024 characters', async () => {
    const res = await authorize(browser(t.app), 'openid', { nonce: 'n'.repeat(1025) });
    expect(query(res.headers.location)).toMatchObject({
      error: 'invalid_request',
      error_description: 'The nonce parameter must be at most 1024 characters',
    });
  });

  it('ignores nonce and max_age without openid, as before', async () => {
    const res = await authorize(browser(t.app), 'read', { max_age: 'abc', nonce: 'x' });
    expect(res.status).toBe(302);
    expect(res.headers.location).toMatch(/^\/oauth2\/login\?request=/);
    const agent = browser(t.app);
    const params = {
      clientId,
      scope: 'read',
      challenge: pkce().challenge,
      extra: { nonce: 'n-1' },
    };
    expect((await authorizeInteractively(agent, params)).code).toBeDefined();
    expect(await codeRow()).toEqual({ nonce: null, auth_time: expect.any(Date) });
  });

  it('binds the nonce and the session sign-in time to the code', async () => {
    const signedInAt = t.clock.now();
    const agent = browser(t.app);
    await signIn(agent);
    t.clock.advance(30_000);
    const res = await authorize(agent, 'openid', { nonce: 'nonce-1', max_age: '60' });
    expect(res.status).toBe(302);
    expect(res.headers.location.startsWith(`${REDIRECT_URI}?code=`)).toBe(true);
    const row = await codeRow();
    expect(row.nonce).toBe('nonce-1');
    expect(row.auth_time?.getTime()).toBe(signedInAt.getTime());
  });

  it('sends a session older than max_age to the login page, and a new sign-in passes', async () => {
    const agent = browser(t.app);
    await signIn(agent);
    t.clock.advance(61_000);
    const res = await authorize(agent, 'openid', { max_age: '60' });
    expect(res.status).toBe(302);
    expect(res.headers.location).toMatch(/^\/oauth2\/login\?request=/);
    const relogin = { clientId, scope: 'openid', challenge: pkce().challenge };
    const answer = await authorizeInteractively(agent, { ...relogin, extra: { max_age: '60' } });
    expect(answer.code).toBeDefined();
    expect((await codeRow()).auth_time?.getTime()).toBe(t.clock.now().getTime());
  });

  it('answers login_required to prompt=none when the sign-in is older than max_age', async () => {
    const agent = browser(t.app);
    await signIn(agent);
    t.clock.advance(61_000);
    const res = await authorize(agent, 'openid', { prompt: 'none', max_age: '60' });
    expect(query(res.headers.location)).toEqual({
      error: 'login_required',
      error_description: 'The user is not signed in',
      state: 'st-123',
      iss: ISSUER,
    });
    const within = await authorize(agent, 'openid', { prompt: 'none', max_age: '61' });
    expect(query(within.headers.location).code).toBeDefined();
  });

  // The OIDF suite's display, hint, locale and unknown-parameter modules: accepted and ignored.
  it.each<Record<string, string>>([
    { display: 'page' },
    { display: 'popup' },
    { login_hint: 'alice' },
    { ui_locales: 'se' },
    { claims_locales: 'se' },
    { extra_unknown: 'x' },
  ])('accepts and ignores %j: a signed-in user gets a code', async (extra) => {
    const agent = browser(t.app);
    await signIn(agent);
    const res = await authorize(agent, 'openid', extra);
    expect(res.headers.location.startsWith(`${REDIRECT_URI}?code=`)).toBe(true);
  });

  it('answers prompt=none with an id_token_hint (ignored) by a code for the signed-in user', async () => {
    const agent = browser(t.app);
    await signIn(agent);
    const res = await authorize(agent, 'openid', { prompt: 'none', id_token_hint: 'a.b.c' });
    expect(query(res.headers.location).code).toBeDefined();
  });
});
