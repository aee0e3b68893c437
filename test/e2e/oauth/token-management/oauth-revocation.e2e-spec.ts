import { createApiKey, createApplication } from '../../../factories';
import { bearer } from '../../../factories/app-users';
import { basic, ISSUER, oauthSetup, REDIRECT_URI } from '../../../support/oauth';
import {
  callAs,
  obtainTokens,
  refreshAs,
  tokenManagementRequest,
  userinfoStatus,
  type TestClient,
} from '../../../support/oauth-tokens';
import { createTestApp, TestApp } from '../../../support/test-app';

type OpenIdClient = typeof import('openid-client', { with: { 'resolution-mode': 'import' } });

const INVALID_GRANT = { error: 'invalid_grant', error_description: expect.any(String) };

describe('Token revocation (RFC 7009): POST /api/oauth2/revoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  async function secretClient(): Promise<TestClient & { applicationId: number }> {
    const { application, clientSecret } = await oauthSetup(t.app, { authMethod: 'secret' });
    return { clientId: application.clientId, clientSecret, applicationId: application.id };
  }
  const revoke = (client: TestClient, form: Record<string, string>, how?: 'basic' | 'post') =>
    callAs(t.app, 'revoke', client, form, how);
  const introspect = (client: TestClient, token: string) =>
    callAs(t.app, 'introspect', client, { token });
  /** RFC 7009 section 2.2: 200, no content, not cached. */
  const expectEmpty200 = (res: {
    status: number;
    text: string;
    headers: Record<string, string>;
  }) => {
    expect([res.status, res.text, res.headers['cache-control']]).toEqual([200, '', 'no-store']);
  };
  const revokedEvents = () =>
    t.dataSource.query<{ user_id: string; description: string }[]>(
      "SELECT user_id::text, description FROM events WHERE event_type = 'token_revoked' ORDER BY id",
    );

  it('revokes an access token (Basic): userinfo then 401, introspection inactive, its refresh token gone', async () => {
    const client = await secretClient();
    const tokens = await obtainTokens(t.app, client);
    expect(await userinfoStatus(t.app, tokens.access_token)).toBe(200);
    const res = await revoke(client, {
      token: tokens.access_token,
      token_type_hint: 'access_token',
    });
    expectEmpty200(res);
    expect(await userinfoStatus(t.app, tokens.access_token)).toBe(401);
    expect((await introspect(client, tokens.access_token)).body).toEqual({ active: false });
    // The row pairs the access token with its refresh token, which is revoked with it.
    const refresh = await refreshAs(t.app, client, tokens.refresh_token);
    expect([refresh.status, refresh.body]).toEqual([400, INVALID_GRANT]);
    expect(await revokedEvents()).toEqual([
      {
        user_id: '1',
        description: 'access token revoked via the revocation endpoint: 1 token(s) revoked',
      },
    ]);
  });

  it('revokes the whole family of a refresh token (client_secret_post), sibling access tokens included', async () => {
    const client = await secretClient();
    const first = await obtainTokens(t.app, client);
    const second = (await refreshAs(t.app, client, first.refresh_token)).body;
    const res = await revoke(client, { token: second.refresh_token }, 'post');
    expectEmpty200(res);
    // The first pair's access token is still unexpired, but descends from the same code.
    expect(await userinfoStatus(t.app, first.access_token)).toBe(401);
    expect(await userinfoStatus(t.app, second.access_token)).toBe(401);
    for (const token of [first.access_token, second.access_token, second.refresh_token])
      expect((await introspect(client, token)).body).toEqual({ active: false });
    const refresh = await refreshAs(t.app, client, second.refresh_token);
    expect([refresh.status, refresh.body]).toEqual([
      400,
      { error: 'invalid_grant', error_description: 'The refresh token has been revoked' },
    ]);
    expect(await revokedEvents()).toEqual([
      {
        user_id: '1',
        description: 'refresh token revoked via the revocation endpoint: 2 token(s) revoked',
      },
    ]);
  });

  it('finds the token whatever the hint says: a wrong or unknown hint only changes the search order', async () => {
    const client = await secretClient();
    const a = await obtainTokens(t.app, client);
    expectEmpty200(
      await revoke(client, { token: a.access_token, token_type_hint: 'refresh_token' }),
    );
    expect(await userinfoStatus(t.app, a.access_token)).toBe(401);
    const b = await obtainTokens(t.app, client);
    expectEmpty200(
      await revoke(client, { token: b.refresh_token, token_type_hint: 'access_token' }),
    );
    expect(await userinfoStatus(t.app, b.access_token)).toBe(401);
    const c = await obtainTokens(t.app, client);
    expectEmpty200(await revoke(client, { token: c.refresh_token, token_type_hint: 'id_token' }));
    expect((await refreshAs(t.app, client, c.refresh_token)).status).toBe(400);
    expect(await revokedEvents()).toHaveLength(3);
  });

  it('answers 200 and records nothing for unknown, garbage and already revoked tokens', async () => {
    const client = await secretClient();
    const tokens = await obtainTokens(t.app, client);
    for (const token of ['unknown-token', '%%%', 'x'.repeat(5000)])
      expectEmpty200(await revoke(client, { token }));
    expect(await revokedEvents()).toEqual([]);
    expectEmpty200(await revoke(client, { token: tokens.refresh_token }));
    expectEmpty200(await revoke(client, { token: tokens.refresh_token }));
    expectEmpty200(await revoke(client, { token: tokens.access_token }));
    expect(await revokedEvents()).toHaveLength(1);
  });

  it("answers another client's token exactly like an unknown one and revokes nothing (RFC 7009 section 2.1)", async () => {
    const owner = await secretClient();
    const other = await createApplication(t.app, {
      authMethod: 'secret',
      redirectUris: [REDIRECT_URI],
    });
    const otherClient = { clientId: other.application.clientId, clientSecret: other.clientSecret };
    const tokens = await obtainTokens(t.app, owner);
    for (const token of [tokens.access_token, tokens.refresh_token]) {
      const res = await revoke(otherClient, { token });
      const unknown = await revoke(otherClient, { token: `${token}x` });
      expectEmpty200(res);
      expect([res.status, res.text, res.headers['content-length']]).toEqual([
        unknown.status,
        unknown.text,
        unknown.headers['content-length'],
      ]);
    }
    expect(await userinfoStatus(t.app, tokens.access_token)).toBe(200);
    expect((await refreshAs(t.app, owner, tokens.refresh_token)).status).toBe(200);
    expect(await revokedEvents()).toEqual([]);
  });

  it('refuses a request without token: 400 invalid_request', async () => {
    const client = await secretClient();
    const res = await revoke(client, {});
    expect([res.status, res.body, res.headers['cache-control']]).toEqual([
      400,
      { error: 'invalid_request', error_description: 'token is required' },
      'no-store',
    ]);
  });

  it('refuses a wrong secret with 401 invalid_client and WWW-Authenticate, Basic and post alike, revoking nothing', async () => {
    const client = await secretClient();
    const tokens = await obtainTokens(t.app, client);
    const wrong = { clientId: client.clientId, clientSecret: 'not-the-secret' };
    const missing = tokenManagementRequest(t.app, 'revoke', { token: tokens.access_token });
    for (const res of [
      await revoke(wrong, { token: tokens.access_token }, 'basic'),
      await revoke(wrong, { token: tokens.access_token }, 'post'),
      await missing,
    ]) {
      expect([res.status, res.body, res.headers['www-authenticate']]).toEqual([
        401,
        { error: 'invalid_client', error_description: expect.any(String) },
        'Basic realm="oauth2", charset="UTF-8"',
      ]);
    }
    expect(await userinfoStatus(t.app, tokens.access_token)).toBe(200);
  });

  it('lets a public client revoke its own token by client_id (RFC 7009 section 5), not with a secret', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const client = { clientId: application.clientId };
    const tokens = await obtainTokens(t.app, client);
    const withSecret = await tokenManagementRequest(
      t.app,
      'revoke',
      { token: tokens.refresh_token },
      basic(client.clientId, 'a-secret'),
    );
    expect([withSecret.status, withSecret.body.error]).toEqual([401, 'invalid_client']);
    expectEmpty200(await revoke(client, { token: tokens.refresh_token }));
    expect(await userinfoStatus(t.app, tokens.access_token)).toBe(401);
    expect((await refreshAs(t.app, client, tokens.refresh_token)).status).toBe(400);
  });

  it('records one token_revoked event, visible through GET /api/v1/app/events', async () => {
    const client = await secretClient();
    const tokens = await obtainTokens(t.app, client, { scope: 'read email' });
    expectEmpty200(await revoke(client, { token: tokens.refresh_token }));
    const key = (await createApiKey(t.app, client.applicationId, ['user:read'])).plaintext;
    const res = await t
      .http()
      .get('/api/v1/app/events?eventType=token_revoked')
      .set(...bearer(key));
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      {
        id: expect.any(Number),
        eventType: 'token_revoked',
        protocol: 'oauth2',
        status: 'success',
        userId: '1',
        scope: 'read email',
        description: 'refresh token revoked via the revocation endpoint: 1 token(s) revoked',
        createdAt: t.clock.now().toISOString(),
      },
    ]);
  });

  it('is driven by openid-client (tokenRevocation)', async () => {
    const oc: OpenIdClient = await import('openid-client');
    const client = await secretClient();
    const tokens = await obtainTokens(t.app, client);
    const base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    const discovered = await fetch(`${base}/.well-known/oauth-authorization-server`);
    const metadata = (await discovered.json()) as { revocation_endpoint: string };
    expect(metadata.revocation_endpoint).toBe(`${ISSUER}/api/oauth2/revoke`);
    const config = new oc.Configuration(
      { issuer: ISSUER, revocation_endpoint: `${base}/api/oauth2/revoke` },
      client.clientId,
      client.clientSecret!,
      oc.ClientSecretBasic(client.clientSecret!),
    );
    oc.allowInsecureRequests(config);
    await oc.tokenRevocation(config, tokens.refresh_token, { token_type_hint: 'refresh_token' });
    expect(await userinfoStatus(t.app, tokens.access_token)).toBe(401);
    expect(await revokedEvents()).toHaveLength(1);
  });
});
