import {
  approveFrom,
  browser,
  exchangeCode,
  expectStatus,
  hiddenInput,
  oauthSetup,
  PASSWORD,
  query,
  REDIRECT_URI,
  type Agent,
} from '../../../support/oauth';
import { authorizeWithRequestUri, push, pushedForm } from '../../../support/par';
import { createTestApp, type TestApp } from '../../../support/test-app';

/** Logs in on the page /authorize led to and approves; the query of the redirect to the client. */
async function loginAndApprove(agent: Agent, location: string): Promise<Record<string, string>> {
  const page = await agent.get(location);
  expectStatus(page, 200);
  const login = await agent
    .post('/oauth2/login')
    .type('form')
    .send({
      request: hiddenInput(page.text, 'request'),
      csrf_token: hiddenInput(page.text, 'csrf_token'),
      username: 'alice',
      password: PASSWORD,
    });
  expectStatus(login, 303);
  return approveFrom(agent, login.headers.location);
}

/** /oauth2/authorize with a request_uri (RFC 9126 section 4). */
describe('The authorization endpoint with a pushed request', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  const pushFor = async (clientId: string, extra: Record<string, string> = {}) => {
    const { form, verifier } = pushedForm(clientId, extra);
    const res = await push(t, form);
    expectStatus(res, 201);
    return { requestUri: (res.body as { request_uri: string }).request_uri, verifier };
  };

  it('uses the pushed request and ignores the other parameters of the URL', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const { requestUri, verifier } = await pushFor(application.clientId, { state: 'pushed' });
    const agent = browser(t.app);
    const start = await agent.get(
      authorizeWithRequestUri(application.clientId, requestUri, {
        state: 'injected',
        redirect_uri: 'https://attacker.example/cb',
        scope: 'read openid',
        response_type: 'token',
      }),
    );
    expectStatus(start, 302);
    expect(start.headers.location).toMatch(/^\/oauth2\/login\?request=/);
    const answer = await loginAndApprove(agent, start.headers.location);
    expect(answer.state).toBe('pushed');
    const tokens = await exchangeCode(t.app, application.clientId, answer.code, verifier);
    expect(tokens.access_token).toEqual(expect.any(String));
    expect(tokens.id_token).toBeUndefined();
  });

  it('takes a request_uri once: a replay gets the invalid_request_uri page, never a redirect', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const { requestUri } = await pushFor(application.clientId);
    const first = await t.http().get(authorizeWithRequestUri(application.clientId, requestUri));
    expectStatus(first, 302);
    const again = await t.http().get(authorizeWithRequestUri(application.clientId, requestUri));
    expect(again.status).toBe(400);
    expect(again.headers.location).toBeUndefined();
    expect(again.text).toContain('Invalid request_uri');
    expect(again.text).not.toContain(requestUri);
  });

  it('refuses an expired request_uri with the invalid_request_uri page', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const { requestUri } = await pushFor(application.clientId);
    t.clock.advance(60_000);
    const res = await t.http().get(authorizeWithRequestUri(application.clientId, requestUri));
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.text).toContain('Invalid request_uri');
  });

  it('accepts a request_uri until just before expires_in', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const { requestUri } = await pushFor(application.clientId);
    t.clock.advance(59_000);
    const res = await t.http().get(authorizeWithRequestUri(application.clientId, requestUri));
    expectStatus(res, 302);
  });

  it("refuses another client's request_uri, and leaves it to its own client", async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const other = await oauthSetup(t.app, { authMethod: 'none', username: 'bob' });
    const { requestUri } = await pushFor(application.clientId);
    const stolen = await t
      .http()
      .get(authorizeWithRequestUri(other.application.clientId, requestUri));
    expect(stolen.status).toBe(400);
    expect(stolen.headers.location).toBeUndefined();
    expect(stolen.text).toContain('Invalid request_uri');
    const own = await t.http().get(authorizeWithRequestUri(application.clientId, requestUri));
    expectStatus(own, 302);
  });

  it('refuses an unknown request_uri, a guessed one included, with the page', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    await pushFor(application.clientId);
    const guessed = `urn:ietf:params:oauth:request_uri:${'A'.repeat(43)}`;
    const res = await t.http().get(authorizeWithRequestUri(application.clientId, guessed));
    expect(res.status).toBe(400);
    expect(res.text).toContain('Invalid request_uri');
  });

  it('takes the pushed request by POST and at the alias /api/oidc/auth, answering as that issuer', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const { requestUri } = await pushFor(application.clientId, { prompt: 'none' });
    const posted = await t
      .http()
      .post('/api/oidc/auth')
      .type('form')
      .send({ client_id: application.clientId, request_uri: requestUri });
    expectStatus(posted, 303);
    // prompt=none without a session: straight back to the pushed redirect_uri, as the alias issuer.
    expect(posted.headers.location.startsWith(REDIRECT_URI)).toBe(true);
    const answer = query(posted.headers.location);
    expect(answer).toMatchObject({ error: 'login_required', state: 'st-par' });
    expect(answer.iss.endsWith('/api/oidc')).toBe(true);
  });

  it('keeps the original answers for a request_uri it did not issue (request objects by reference)', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const res = await t.http().get(
      `/oauth2/authorize?${new URLSearchParams({
        ...pushedForm(application.clientId, { scope: 'openid' }).form,
        request_uri: 'https://client.example/request.jwt',
      }).toString()}`,
    );
    expectStatus(res, 302);
    expect(query(res.headers.location).error).toBe('request_uri_not_supported');
  });

  it('refuses a client that requires PAR at /authorize without a request_uri, on its redirect_uri', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    await t.dataSource.query(
      'UPDATE applications SET require_pushed_authorization_requests = true WHERE id = $1',
      [application.id],
    );
    const { form } = pushedForm(application.clientId);
    const direct = await t.http().get(`/oauth2/authorize?${new URLSearchParams(form).toString()}`);
    expectStatus(direct, 302);
    expect(query(direct.headers.location)).toMatchObject({
      error: 'invalid_request',
      error_description: 'Pushed authorization request required',
      state: 'st-par',
    });
    const { requestUri } = await pushFor(application.clientId);
    const pushed = await t.http().get(authorizeWithRequestUri(application.clientId, requestUri));
    expectStatus(pushed, 302);
    expect(pushed.headers.location).toMatch(/^\/oauth2\/login\?request=/);
  });

  it('never redirects a required-PAR refusal to an unregistered redirect_uri', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    await t.dataSource.query(
      'UPDATE applications SET require_pushed_authorization_requests = true WHERE id = $1',
      [application.id],
    );
    const { form } = pushedForm(application.clientId, {
      redirect_uri: 'https://attacker.example/cb',
    });
    const res = await t.http().get(`/oauth2/authorize?${new URLSearchParams(form).toString()}`);
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
  });
});

describe('REQUIRE_PUSHED_AUTHORIZATION_REQUESTS (the deployment switch)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { REQUIRE_PUSHED_AUTHORIZATION_REQUESTS: 'true' } });
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  it('refuses every client at /authorize without a request_uri and says so in discovery', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const { form } = pushedForm(application.clientId);
    const direct = await t.http().get(`/oauth2/authorize?${new URLSearchParams(form).toString()}`);
    expectStatus(direct, 302);
    expect(query(direct.headers.location).error).toBe('invalid_request');
    const pushed = await push(t, form);
    expectStatus(pushed, 201);
    const { request_uri: requestUri } = pushed.body as { request_uri: string };
    const start = await t.http().get(authorizeWithRequestUri(application.clientId, requestUri));
    expectStatus(start, 302);
    expect(start.headers.location).toMatch(/^\/oauth2\/login\?request=/);
    for (const path of [
      '/.well-known/openid-configuration',
      '/api/oidc/.well-known/openid-configuration',
    ]) {
      const metadata = await t.http().get(path);
      expect(metadata.body).toMatchObject({ require_pushed_authorization_requests: true });
    }
  });
});
