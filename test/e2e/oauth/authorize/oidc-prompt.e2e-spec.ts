import {
  approveFrom,
  authorizeInteractively,
  authorizeParams,
  authorizePath,
  browser,
  exchangeCode,
  expectStatus,
  hiddenInput,
  ISSUER,
  oauthSetup,
  PASSWORD,
  pkce,
  query,
  REDIRECT_URI,
  type Agent,
} from '../../../support/oauth';
import { createTestApp, TestApp } from '../../../support/test-app';

const claimsOf = (idToken: string | undefined): Record<string, unknown> =>
  JSON.parse(Buffer.from(idToken!.split('.')[1], 'base64url').toString()) as Record<
    string,
    unknown
  >;

// OIDC Core 3.1.2.1: prompt=login, consent, select_account and none.
describe('OpenID Connect prompt', () => {
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

  const authorize = (agent: Agent, extra: Record<string, string>, scope = 'openid') =>
    agent.get(
      authorizePath(authorizeParams({ clientId, scope, challenge: pkce().challenge, extra })),
    );
  /** Signs in and approves openid; returns the id_token of the code. */
  async function firstSignIn(agent: Agent): Promise<Record<string, unknown>> {
    const { verifier, challenge } = pkce();
    const { code } = await authorizeInteractively(agent, { clientId, scope: 'openid', challenge });
    return claimsOf((await exchangeCode(t.app, clientId, code, verifier)).id_token);
  }
  const submitLogin = async (agent: Agent, location: string) => {
    const page = await agent.get(location);
    expectStatus(page, 200);
    return agent
      .post('/oauth2/login')
      .type('form')
      .send({
        request: hiddenInput(page.text, 'request'),
        csrf_token: hiddenInput(page.text, 'csrf_token'),
        username: 'alice',
        password: PASSWORD,
      });
  };

  it.each([{}, { max_age: '10000' }])(
    'prompt=login shows the login page to a signed-in user (%j) and the new id_token has a later auth_time',
    async (extra) => {
      const agent = browser(t.app);
      const first = await firstSignIn(agent);
      t.clock.advance(5_000);
      const { verifier, challenge } = pkce();
      const params = authorizeParams({ clientId, scope: 'openid', challenge });
      const res = await agent.get(authorizePath({ ...params, prompt: 'login', ...extra }));
      expect(res.status).toBe(302);
      expect(res.headers.location).toMatch(/^\/oauth2\/login\?request=/);
      const afterLogin = await submitLogin(agent, res.headers.location);
      expectStatus(afterLogin, 303);
      const { code } = query(afterLogin.headers.location);
      const second = claimsOf((await exchangeCode(t.app, clientId, code, verifier)).id_token);
      expect(second.auth_time).toBe((first.auth_time as number) + 5);
    },
  );

  it('without prompt=login a signed-in user gets a code at once, as before', async () => {
    const agent = browser(t.app);
    await firstSignIn(agent);
    const res = await authorize(agent, {});
    expect(res.headers.location.startsWith(`${REDIRECT_URI}?code=`)).toBe(true);
  });

  it('prompt=consent shows the consent page although an earlier grant covers the scopes', async () => {
    const agent = browser(t.app);
    await firstSignIn(agent);
    const res = await authorize(agent, { prompt: 'consent' });
    expect(res.status).toBe(302);
    expect(res.headers.location).toMatch(/^\/oauth2\/consent\?request=/);
    const page = await agent.get(res.headers.location);
    expect(page.status).toBe(200);
    expect(page.text).toContain('value="approve"');
    expect((await approveFrom(agent, res.headers.location)).code).toBeDefined();
  });

  it('prompt=select_account offers "Continue as" the signed-in user, which issues the code', async () => {
    const agent = browser(t.app);
    await firstSignIn(agent);
    const res = await authorize(agent, { prompt: 'select_account' });
    expect(res.status).toBe(302);
    expect(res.headers.location).toMatch(/^\/oauth2\/select-account\?request=/);
    const page = await agent.get(res.headers.location);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Continue as alice');
    expect(page.text).toContain('Use another account');
    const answer = await agent
      .post('/oauth2/select-account')
      .type('form')
      .send({
        request: hiddenInput(page.text, 'request'),
        csrf_token: hiddenInput(page.text, 'csrf_token'),
        decision: 'continue',
      });
    expect(answer.status).toBe(303);
    expect(query(answer.headers.location)).toMatchObject({ state: 'st-123', iss: ISSUER });
    expect(query(answer.headers.location).code).toBeDefined();
  });

  it('"Use another account" signs out and shows the login page of the same request', async () => {
    const agent = browser(t.app);
    await firstSignIn(agent);
    const page = await agent.get(
      (await authorize(agent, { prompt: 'select_account' })).headers.location,
    );
    const answer = await agent
      .post('/oauth2/select-account')
      .type('form')
      .send({
        request: hiddenInput(page.text, 'request'),
        csrf_token: hiddenInput(page.text, 'csrf_token'),
        decision: 'switch',
      });
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toMatch(/^\/oauth2\/login\?request=/);
    expect(String(answer.headers['set-cookie'])).toMatch(/idsvc_session=;/);
    expect(await t.dataSource.query('SELECT id FROM oauth_sessions')).toEqual([]);
    const afterLogin = await submitLogin(agent, answer.headers.location);
    expectStatus(afterLogin, 303);
    expect(query(afterLogin.headers.location).code).toBeDefined();
  });

  it('refuses the select-account form without its CSRF token', async () => {
    const agent = browser(t.app);
    await firstSignIn(agent);
    const page = await agent.get(
      (await authorize(agent, { prompt: 'select_account' })).headers.location,
    );
    const answer = await agent
      .post('/oauth2/select-account')
      .type('form')
      .send({ request: hiddenInput(page.text, 'request'), decision: 'switch' });
    expect(answer.status).toBe(403);
    expect(await t.dataSource.query('SELECT id FROM oauth_sessions')).toHaveLength(1);
  });

  it('prompt=select_account without a session is the login page', async () => {
    const res = await authorize(browser(t.app), { prompt: 'select_account' });
    expect(res.headers.location).toMatch(/^\/oauth2\/login\?request=/);
  });

  it.each(['none login', 'consent none', 'none select_account'])(
    'refuses prompt=%j: none with any other value is invalid_request',
    async (prompt) => {
      const res = await authorize(browser(t.app), { prompt });
      expect(query(res.headers.location)).toEqual({
        error: 'invalid_request',
        error_description: 'prompt=none cannot be combined with other values',
        state: 'st-123',
        iss: ISSUER,
      });
    },
  );

  it('prompt=none still answers silently: login_required, then a code once signed in', async () => {
    const agent = browser(t.app);
    expect(query((await authorize(agent, { prompt: 'none' })).headers.location).error).toBe(
      'login_required',
    );
    await firstSignIn(agent);
    expect(query((await authorize(agent, { prompt: 'none' })).headers.location).code).toBeDefined();
  });

  it('keeps prompt=none only without openid: login is invalid_request, as before', async () => {
    const res = await authorize(browser(t.app), { prompt: 'login' }, 'read');
    expect(query(res.headers.location)).toEqual({
      error: 'invalid_request',
      error_description: 'The only supported prompt value is none',
      state: 'st-123',
      iss: ISSUER,
    });
  });

  it('refuses an unknown prompt value with openid', async () => {
    const res = await authorize(browser(t.app), { prompt: 'login create' });
    expect(query(res.headers.location)).toMatchObject({
      error: 'invalid_request',
      error_description: 'Unsupported prompt value: create',
    });
  });

  it('still asks a public client on a loopback redirect, prompt=login or not (RFC 8252 8.6)', async () => {
    const agent = browser(t.app);
    await firstSignIn(agent);
    const params = authorizeParams({
      clientId,
      scope: 'openid',
      challenge: pkce().challenge,
      redirectUri: 'http://127.0.0.1:8123/cb',
    });
    const res = await agent.get(authorizePath({ ...params, prompt: 'login' }));
    const afterLogin = await submitLogin(agent, res.headers.location);
    expect(afterLogin.headers.location).toMatch(/^\/oauth2\/consent\?request=/);
  });
});
