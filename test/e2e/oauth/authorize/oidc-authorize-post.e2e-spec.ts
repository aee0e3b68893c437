import {
  approveFrom,
  authorizeParams,
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

// OIDC Core 3.1.2.1: the authorization endpoint MUST support POST with a form body.
describe('OpenID Connect authorization request by POST', () => {
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

  const form = (challenge: string, extra: Record<string, string> = {}) => {
    const params = authorizeParams({ clientId, scope: 'openid profile', challenge, extra });
    return Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined)) as Record<
      string,
      string
    >;
  };
  const post = (agent: Agent, body: string | Record<string, string>, path = '/oauth2/authorize') =>
    agent.post(path).type('form').send(body);

  // Each authorization endpoint answers as its own issuer (docs/oidc.md, the two issuers).
  it.each([
    ['/oauth2/authorize', ISSUER],
    ['/api/oidc/auth', `${ISSUER}/api/oidc`],
  ])(
    'runs the whole flow from a POST to %s without any CSRF token, as the issuer %s',
    async (path, issuer) => {
      const agent = browser(t.app);
      const { verifier, challenge } = pkce();
      const res = await post(agent, form(challenge, { nonce: 'n-post' }), path);
      expect(res.status).toBe(303);
      expect(res.headers.location).toMatch(/^\/oauth2\/login\?request=/);
      const page = await agent.get(res.headers.location);
      const afterLogin = await agent
        .post('/oauth2/login')
        .type('form')
        .send({
          request: hiddenInput(page.text, 'request'),
          csrf_token: hiddenInput(page.text, 'csrf_token'),
          username: 'alice',
          password: PASSWORD,
        });
      expectStatus(afterLogin, 303);
      const { code, state, iss } = await approveFrom(agent, afterLogin.headers.location);
      expect({ state, iss }).toEqual({ state: 'st-123', iss: issuer });
      const tokens = await exchangeCode(t.app, clientId, code, verifier);
      const claims = JSON.parse(
        Buffer.from(tokens.id_token!.split('.')[1], 'base64url').toString(),
      ) as { nonce: string; iss: string };
      expect({ nonce: claims.nonce, iss: claims.iss }).toEqual({ nonce: 'n-post', iss: issuer });
    },
  );

  it('answers a signed-in user with the code at once, as GET does (303)', async () => {
    const agent = browser(t.app);
    const first = await post(agent, form(pkce().challenge));
    const page = await agent.get(first.headers.location);
    const afterLogin = await agent
      .post('/oauth2/login')
      .type('form')
      .send({
        request: hiddenInput(page.text, 'request'),
        csrf_token: hiddenInput(page.text, 'csrf_token'),
        username: 'alice',
        password: PASSWORD,
      });
    await approveFrom(agent, afterLogin.headers.location);
    const res = await post(agent, form(pkce().challenge));
    expect(res.status).toBe(303);
    expect(res.headers.location.startsWith(`${REDIRECT_URI}?code=`)).toBe(true);
  });

  it('refuses a repeated parameter like the query: invalid_request redirect', async () => {
    const body = new URLSearchParams(form(pkce().challenge));
    body.append('scope', 'openid');
    const res = await post(browser(t.app), body.toString());
    expect(res.status).toBe(303);
    expect(query(res.headers.location)).toEqual({
      error: 'invalid_request',
      error_description: 'The scope parameter is repeated or malformed',
      state: 'st-123',
      iss: ISSUER,
    });
  });

  it('reads bracketed names literally, as the query does (no nested objects)', async () => {
    const body = new URLSearchParams(form(pkce().challenge));
    body.append('scope[x]', 'read');
    const res = await post(browser(t.app), body.toString());
    expect(res.headers.location).toMatch(/^\/oauth2\/login\?request=/);
  });

  it('refuses a state over 1024 characters like the query', async () => {
    const res = await post(browser(t.app), form(pkce().challenge, { state: 's'.repeat(1025) }));
    expect(query(res.headers.location)).toMatchObject({
      error: 'invalid_request',
      error_description: 'The state parameter must be at most 1024 characters',
    });
  });

  it('shows the error page, never a redirect, for an unregistered redirect_uri', async () => {
    const res = await post(browser(t.app), {
      ...form(pkce().challenge),
      redirect_uri: 'https://evil.example/cb',
    });
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
  });

  it.each(['/oauth2/authorize', '/api/oidc/auth'])(
    'refuses a JSON body to %s with the 415 page',
    async (path) => {
      const res = await browser(t.app)
        .post(path)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(form(pkce().challenge)));
      expect(res.status).toBe(415);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    },
  );

  it('reads the form, not the query string', async () => {
    const res = await browser(t.app)
      .post(`/oauth2/authorize?client_id=${clientId}`)
      .type('form')
      .send({});
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
  });
});
