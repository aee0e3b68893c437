import { createApplication, createUser, runInApp } from '../../../factories';
import { consoleSession } from '../../../support/console';
import {
  authorizePath,
  authorizeParams,
  browser,
  hiddenInput,
  ISSUER,
  login,
  PASSWORD,
  pkce,
  query,
  tokenRequest,
  type Agent,
} from '../../../support/oauth';
import { createTestApp, TestApp } from '../../../support/test-app';

/** The schemes and the fragment every registration surface refuses (docs/oidc.md). */
const REFUSED = [
  'javascript:alert(1)',
  'data:text/html,hi',
  'vbscript:msgbox(1)',
  'file:///tmp/cb',
  'blob:https://client.example/0b7e',
  'about:blank',
  'splitdns://callback#frag',
];

/** Native apps (RFC 8252) — private-use schemes and loopback ports. */
describe('Native apps: private-use schemes and loopback redirects (RFC 8252)', () => {
  let t: TestApp;
  const cli = (...argv: string[]) => runInApp(t.app, [...argv, '--json']);
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    await createUser(t.app, { username: 'alice', email: 'alice@example.org', password: PASSWORD });
  });

  /** authorize → login → consent (approve, unless granted before); the raw 303 to the client. */
  async function authorize(agent: Agent, clientId: string, redirectUri: string, challenge: string) {
    const afterLogin = await login(agent, { clientId, redirectUri, challenge });
    expect(afterLogin.status).toBe(303);
    if (!afterLogin.headers.location.startsWith('/oauth2/consent')) return afterLogin;
    const page = await agent.get(afterLogin.headers.location);
    expect(page.status).toBe(200);
    return agent
      .post('/oauth2/consent')
      .type('form')
      .send({
        request: hiddenInput(page.text, 'request'),
        csrf_token: hiddenInput(page.text, 'csrf_token'),
        decision: 'approve',
      });
  }

  /** A code for `redirectUri` (sent as is), with its verifier. */
  async function codeFor(clientId: string, redirectUri: string) {
    const { verifier, challenge } = pkce();
    const res = await authorize(browser(t.app), clientId, redirectUri, challenge);
    expect(res.status).toBe(303);
    const location = res.headers.location;
    expect(location.startsWith(`${redirectUri}?code=`)).toBe(true);
    return { code: query(location).code, verifier, location };
  }

  const exchange = (clientId: string, code: string, verifier: string, redirectUri: string) =>
    tokenRequest(t.app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: clientId,
      code_verifier: verifier,
    });

  it('registers splitdns://callback through the CLI and completes the flow with PKCE', async () => {
    const created = await cli(
      'app',
      'create',
      '--name',
      'Desktop',
      '--redirect-uri',
      'splitdns://callback',
      '--auth-method',
      'none',
    );
    expect(created.exitCode).toBe(0);
    const { clientId } = JSON.parse(created.stdout) as { clientId: string };
    const { code, verifier, location } = await codeFor(clientId, 'splitdns://callback');
    const url = new URL(location);
    expect(`${url.protocol}//${url.host}${url.pathname}`).toBe('splitdns://callback');
    expect([...url.searchParams.keys()]).toEqual(['code', 'state', 'iss']);
    expect(query(location)).toEqual({ code, state: 'st-123', iss: ISSUER });
    const res = await exchange(clientId, code, verifier, 'splitdns://callback');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'bearer', scope: 'read' });
  });

  describe.each(['127.0.0.1', '[::1]'])('a loopback redirect on %s', (host) => {
    const registered = `http://${host}:8123/cb`;
    const otherPort = `http://${host}:51004/cb`;

    it('matches another port for a none client; the token request must send that port', async () => {
      const { application } = await createApplication(t.app, {
        authMethod: 'none',
        redirectUris: [registered],
      });
      const clientId = application.clientId;
      const spent = await codeFor(clientId, otherPort);
      // The code is bound to the redirect_uri actually used (RFC 6749 section 4.1.3).
      const registeredPort = await exchange(clientId, spent.code, spent.verifier, registered);
      expect(registeredPort.body).toEqual({
        error: 'invalid_grant',
        error_description: 'redirect_uri does not match the authorization request',
      });
      const { code, verifier } = await codeFor(clientId, otherPort);
      expect((await exchange(clientId, code, verifier, otherPort)).status).toBe(200);
    });

    it('refuses another port for a secret client with an error page, never a redirect', async () => {
      const { application } = await createApplication(t.app, {
        authMethod: 'secret',
        redirectUris: [registered],
      });
      const params = authorizeParams({ clientId: application.clientId, redirectUri: otherPort });
      const res = await browser(t.app).get(authorizePath(params));
      expect(res.status).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.text).toContain('The redirect_uri is not registered for this application.');
    });
  });

  it('gives localhost no port flexibility, even for a none client (RFC 8252 section 8.3)', async () => {
    const { application } = await createApplication(t.app, {
      authMethod: 'none',
      redirectUris: ['http://localhost:8123/cb'],
    });
    const { challenge } = pkce();
    const params = authorizeParams({
      clientId: application.clientId,
      redirectUri: 'http://localhost:51004/cb',
      challenge,
    });
    const res = await browser(t.app).get(authorizePath(params));
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
  });

  describe('an earlier approval (RFC 8252 section 8.6)', () => {
    const LOOPBACK = 'http://127.0.0.1:8123/cb';
    const HTTPS = 'https://client.example/cb';

    /** A browser signed in as alice that approved the client once for `redirectUri`. */
    async function approvedOnce(authMethod: 'none' | 'secret', redirectUri: string) {
      const { application } = await createApplication(t.app, {
        authMethod,
        redirectUris: [redirectUri],
      });
      const agent = browser(t.app);
      const first = await authorize(agent, application.clientId, redirectUri, pkce().challenge);
      expect(first.status).toBe(303);
      expect(first.headers.location.startsWith(`${redirectUri}?code=`)).toBe(true);
      const again = (uri: string, extra: Record<string, string> = {}) =>
        agent.get(
          authorizePath(
            authorizeParams({
              clientId: application.clientId,
              redirectUri: uri,
              challenge: pkce().challenge,
              extra,
            }),
          ),
        );
      return { agent, again };
    }

    it('asks a none client with a loopback redirect again: consent page, never a code', async () => {
      const { agent, again } = await approvedOnce('none', LOOPBACK);
      // Any local program could send this: its own port, its own PKCE challenge.
      const res = await again('http://127.0.0.1:51004/cb');
      expect(res.status).toBe(302);
      expect(res.headers.location.startsWith('/oauth2/consent?request=')).toBe(true);
      const page = await agent.get(res.headers.location);
      expect(page.status).toBe(200);
      expect(page.text).toContain('name="decision" value="approve"');
      const codes = await t.dataSource.query<{ n: number }[]>(
        'SELECT count(*)::int AS n FROM oauth_codes',
      );
      expect(codes).toEqual([{ n: 1 }]);
    });

    it('answers prompt=none for a none client with a loopback redirect with consent_required', async () => {
      const { again } = await approvedOnce('none', LOOPBACK);
      const res = await again('http://127.0.0.1:51004/cb', { prompt: 'none' });
      expect(res.status).toBe(302);
      expect(res.headers.location.startsWith('http://127.0.0.1:51004/cb?')).toBe(true);
      expect(query(res.headers.location)).toEqual({
        error: 'consent_required',
        error_description: 'The user has not authorized this application',
        state: 'st-123',
        iss: ISSUER,
      });
    });

    it('asks a none client with a private-use scheme redirect again', async () => {
      const { again } = await approvedOnce('none', 'splitdns://callback');
      const res = await again('splitdns://callback');
      expect(res.headers.location.startsWith('/oauth2/consent?request=')).toBe(true);
      expect(
        query((await again('splitdns://callback', { prompt: 'none' })).headers.location),
      ).toMatchObject({ error: 'consent_required' });
    });

    it.each([
      ['none', HTTPS],
      ['secret', LOOPBACK],
    ] as const)('stays silent for a %s client with %s', async (authMethod, redirectUri) => {
      const { again } = await approvedOnce(authMethod, redirectUri);
      for (const extra of [{}, { prompt: 'none' }] as Record<string, string>[]) {
        const res = await again(redirectUri, extra);
        expect(res.status).toBe(302);
        expect(res.headers.location.startsWith(`${redirectUri}?`)).toBe(true);
        expect(Object.keys(query(res.headers.location)).sort()).toEqual(['code', 'iss', 'state']);
      }
    });
  });

  it.each(REFUSED)('refuses %s through the CLI (invalid_request, exit 1)', async (uri) => {
    const res = await cli('app', 'create', '--name', 'A', '--redirect-uri', uri);
    expect(res.exitCode).toBe(1);
    expect(JSON.parse(res.stdout)).toEqual({
      error: 'invalid_request',
      message: `redirect URIs not allowed: ${uri}`,
    });
  });

  it('refuses each of them through the console API, on creation and in settings (400)', async () => {
    const [{ id }] = await t.dataSource.query<{ id: string }[]>('SELECT id FROM users');
    const owner = await consoleSession(t, id);
    const created = await owner
      .request('post', '/api/console/applications')
      .send({ name: 'Desktop', redirectUris: ['splitdns://callback', 'com.example.app:/cb'] });
    expect(created.status).toBe(201);
    const path = `/api/console/applications/${(created.body as { id: number }).id}`;
    for (const uri of REFUSED) {
      const create = await owner
        .request('post', '/api/console/applications')
        .send({ name: 'A', redirectUris: [uri] });
      const update = await owner.request('patch', path).send({ redirectUris: [uri] });
      for (const res of [create, update])
        expect([uri, res.status, (res.body as { error: string }).error]).toEqual([
          uri,
          400,
          'invalid_request',
        ]);
    }
    const apps = await t.dataSource.query<{ redirect_uris: string[] }[]>(
      'SELECT redirect_uris FROM applications',
    );
    expect(apps).toEqual([{ redirect_uris: ['splitdns://callback', 'com.example.app:/cb'] }]);
  });
});
