import {
  approveFrom,
  authorizeParams,
  authorizePath,
  basic,
  browser,
  expectStatus,
  hiddenInput,
  oauthSetup,
  pkce,
  PASSWORD,
  REDIRECT_URI,
  tokenRequest,
} from '../../../support/oauth';
import { createTestApp, TestApp } from '../../../support/test-app';

// RFC 6749 section 3.3 and OIDC Core 3.1.2.1: scope values the service does not define are
// ignored, a request naming none of its scopes (or no scope at all) gets the default `read`, and
// the token response's `scope` says what was granted (docs/oauth.md, "Scopes").
describe('Scope: unknown values ignored, read by default', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  /**
   * Signs in and approves an authorization request whose scope parameter is `scope` (undefined:
   * not sent), then exchanges the code; returns the token response and what consent showed.
   */
  async function grant(scope: string | undefined, authMethod: 'none' | 'secret' = 'none') {
    const { application, clientSecret } = await oauthSetup(t.app, { authMethod });
    const { verifier, challenge } = pkce();
    const agent = browser(t.app);
    const params = { ...authorizeParams({ clientId: application.clientId, challenge }), scope };
    const start = await agent.get(authorizePath(params));
    expectStatus(start, 302);
    expect(start.headers.location).toMatch(/^\/oauth2\/login\?/);
    const page = await agent.get(start.headers.location);
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
    const consent = await agent.get(login.headers.location);
    const { code } = await approveFrom(agent, login.headers.location);
    const auth = clientSecret ? basic(application.clientId, clientSecret) : undefined;
    const form: Record<string, string> = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    };
    if (!clientSecret) form.client_id = application.clientId;
    const res = await tokenRequest(t.app, form, auth);
    expectStatus(res, 200);
    const refresh = (refreshToken: string, extra: Record<string, string>) =>
      tokenRequest(
        t.app,
        {
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
          ...(clientSecret ? {} : { client_id: application.clientId }),
          ...extra,
        },
        auth,
      );
    return { body: res.body, consent: consent.text, refresh };
  }

  it('grants read for scope=read write, and the token response says so', async () => {
    const { body, consent } = await grant('read write');
    expect(body.scope).toBe('read');
    expect(consent).not.toContain('write');
    const info = await t
      .http()
      .get('/api/oauth2/userinfo')
      .set('Authorization', `Bearer ${body.access_token}`);
    expect(info.status).toBe(200);
  });

  it.each([
    ['no scope parameter', undefined],
    ['an empty scope', ''],
    ['only values it does not define', 'write admin'],
  ])('grants the default read for %s', async (_name, scope) => {
    expect((await grant(scope)).body.scope).toBe('read');
  });

  it('keeps the OpenID Connect scopes it defines next to unknown ones (offline_access)', async () => {
    const { body } = await grant('openid offline_access profile');
    expect(body.scope).toBe('openid profile');
    expect(typeof body.id_token).toBe('string');
  });

  it.each(['none', 'secret'] as const)(
    'ignores unknown values at refresh too (%s client)',
    async (authMethod) => {
      const { body, refresh } = await grant('read email', authMethod);
      const narrowed = await refresh(body.refresh_token, { scope: 'email write' });
      expectStatus(narrowed, 200);
      expect(narrowed.body.scope).toBe('email');
      // Naming none of its scopes is the same as omitting scope: the grant's scope is kept.
      const kept = await refresh(narrowed.body.refresh_token, { scope: 'write' });
      expectStatus(kept, 200);
      expect(kept.body.scope).toBe('email');
      const wider = await refresh(kept.body.refresh_token, { scope: 'read write' });
      expect(wider.body).toEqual({
        error: 'invalid_scope',
        error_description: 'The requested scope exceeds the original grant',
      });
    },
  );
});
