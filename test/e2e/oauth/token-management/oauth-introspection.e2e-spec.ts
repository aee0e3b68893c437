import { sha256Hex } from '../../../../src/common/crypto/hash';
import {
  introspectMany,
  introspectOne,
} from '../../../../src/modules/oauth/token-management/introspection-sql';
import { createApiKey, createApplication } from '../../../factories';
import { bearer } from '../../../factories/app-users';
import { ISSUER, oauthSetup, REDIRECT_URI } from '../../../support/oauth';
import {
  callAs,
  obtainTokens,
  refreshAs,
  type IssuedTokens,
  type TestClient,
} from '../../../support/oauth-tokens';
import { createTestApp, TestApp } from '../../../support/test-app';

type OpenIdClient = typeof import('openid-client', { with: { 'resolution-mode': 'import' } });

const INACTIVE = { active: false };
const DAY = 86_400_000;

/**
 * The exact RFC 7662 answer for alice's active token of `clientId`, issued at `iat` with scope
 * `read email`: access tokens live 3600 s, refresh tokens 30 days (the defaults).
 */
function activeBody(clientId: string, iat: number, kind: 'access' | 'refresh') {
  return {
    active: true,
    scope: 'read email',
    client_id: clientId,
    sub: '1',
    username: 'alice',
    exp: iat + (kind === 'access' ? 3600 : 30 * 86_400),
    iat,
    token_type: kind === 'access' ? 'bearer' : 'refresh_token',
    iss: ISSUER,
    aud: clientId,
  };
}

describe('Token introspection (RFC 7662): POST /api/oauth2/introspect', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  async function issued(): Promise<{
    client: TestClient & { applicationId: number };
    tokens: IssuedTokens;
    iat: number;
  }> {
    const { application, clientSecret } = await oauthSetup(t.app, { authMethod: 'secret' });
    const client = { clientId: application.clientId, clientSecret, applicationId: application.id };
    const iat = Math.floor(t.clock.now().getTime() / 1000);
    return { client, tokens: await obtainTokens(t.app, client, { scope: 'read email' }), iat };
  }
  const introspect = (client: TestClient, form: Record<string, string>, how?: 'basic' | 'post') =>
    callAs(t.app, 'introspect', client, form, how);
  const bodyOf = async (client: TestClient, token: string) =>
    (await introspect(client, { token })).body as Record<string, unknown>;

  it('describes an active access token with exactly the RFC 7662 fields (Basic and post)', async () => {
    const { client, tokens, iat } = await issued();
    const expected = activeBody(client.clientId, iat, 'access');
    for (const how of ['basic', 'post'] as const) {
      const res = await introspect(client, { token: tokens.access_token }, how);
      expect([res.status, res.body, res.headers['cache-control']]).toEqual([
        200,
        expected,
        'no-store',
      ]);
    }
    const hinted = await introspect(client, {
      token: tokens.access_token,
      token_type_hint: 'refresh_token',
    });
    expect(hinted.body).toEqual(expected);
  });

  it('describes an active refresh token, found by its hint or by the fallback search', async () => {
    const { client, tokens, iat } = await issued();
    const expected = activeBody(client.clientId, iat, 'refresh');
    for (const hint of [
      { token_type_hint: 'refresh_token' },
      {},
      { token_type_hint: 'access_token' },
    ] as Record<string, string>[])
      expect((await introspect(client, { token: tokens.refresh_token, ...hint })).body).toEqual(
        expected,
      );
  });

  it('answers exactly {"active": false} once a token has expired (clock moved)', async () => {
    const { client, tokens } = await issued();
    t.clock.advance(3600_000);
    expect(await bodyOf(client, tokens.access_token)).toEqual(INACTIVE);
    expect(await bodyOf(client, tokens.refresh_token)).toMatchObject({ active: true });
    t.clock.advance(30 * DAY);
    expect(await bodyOf(client, tokens.refresh_token)).toEqual(INACTIVE);
  });

  it('answers exactly {"active": false} for revoked, unknown and garbage tokens', async () => {
    const { client, tokens } = await issued();
    const revoked = await callAs(t.app, 'revoke', client, { token: tokens.refresh_token });
    expect(revoked.status).toBe(200);
    for (const token of [
      tokens.access_token,
      tokens.refresh_token,
      'unknown',
      '%%',
      'x'.repeat(3000),
    ])
      expect(await bodyOf(client, token)).toEqual(INACTIVE);
  });

  it('answers exactly {"active": false} for another client\'s active token (no leak)', async () => {
    const { client, tokens } = await issued();
    const other = await createApplication(t.app, {
      authMethod: 'secret',
      redirectUris: [REDIRECT_URI],
    });
    const otherClient = { clientId: other.application.clientId, clientSecret: other.clientSecret };
    expect(await bodyOf(otherClient, tokens.access_token)).toEqual(INACTIVE);
    expect(await bodyOf(otherClient, tokens.refresh_token)).toEqual(INACTIVE);
    expect(await bodyOf(client, tokens.access_token)).toMatchObject({ active: true });
  });

  it('refuses public clients and bad credentials with 401 invalid_client and WWW-Authenticate', async () => {
    const { client, tokens } = await issued();
    const { application } = await oauthSetup(t.app, { authMethod: 'none', username: 'bob' });
    const publicClient = { clientId: application.clientId };
    const wrong = { clientId: client.clientId, clientSecret: 'wrong' };
    for (const res of [
      await introspect(publicClient, { token: tokens.access_token }),
      await introspect(wrong, { token: tokens.access_token }, 'basic'),
      await introspect(wrong, { token: tokens.access_token }, 'post'),
    ]) {
      expect([res.status, res.body, res.headers['www-authenticate']]).toEqual([
        401,
        { error: 'invalid_client', error_description: expect.any(String) },
        'Basic realm="oauth2", charset="UTF-8"',
      ]);
    }
    const missing = await introspect(client, {});
    expect([missing.status, missing.body]).toEqual([
      400,
      { error: 'invalid_request', error_description: 'token is required' },
    ]);
  });

  it('turns inactive on the very next call once the user is disabled through the application API', async () => {
    const { client, tokens } = await issued();
    const key = (await createApiKey(t.app, client.applicationId, ['user:write'])).plaintext;
    const patched = await t
      .http()
      .patch('/api/v1/app/users/1')
      .set(...bearer(key))
      .send({ enabled: false });
    expect(patched.status).toBe(200);
    expect(await bodyOf(client, tokens.access_token)).toEqual(INACTIVE);
    expect(await bodyOf(client, tokens.refresh_token)).toEqual(INACTIVE);
  });

  it('answers inactive for a rotated-out refresh token and active for its successor', async () => {
    const { client, tokens } = await issued();
    const next = await refreshAs(t.app, client, tokens.refresh_token);
    expect(next.status).toBe(200);
    expect(await bodyOf(client, tokens.refresh_token)).toEqual(INACTIVE);
    expect(await bodyOf(client, next.body.refresh_token)).toMatchObject({
      active: true,
      token_type: 'refresh_token',
    });
    // The rotated-out pair's access token lives on until it expires (docs/oauth.md).
    expect(await bodyOf(client, tokens.access_token)).toMatchObject({ active: true });
  });

  /**
   * Introspections of every kind, each with its status and body: live, expired (the clock moved)
   * and revoked tokens, another client's token, a wrong secret and a missing token.
   */
  async function mixedCases(): Promise<[TestClient, Record<string, string>, number, unknown][]> {
    const { client, tokens: aged, iat: agedIat } = await issued();
    t.clock.advance(3600_000); // aged's access token expires; its refresh token lives on
    const fresh = await obtainTokens(t.app, client, { scope: 'read email' });
    const iat = Math.floor(t.clock.now().getTime() / 1000);
    const revoked = await obtainTokens(t.app, client, { scope: 'read email' });
    const revocation = await callAs(t.app, 'revoke', client, { token: revoked.refresh_token });
    expect(revocation.status).toBe(200);
    const other = await createApplication(t.app, {
      authMethod: 'secret',
      redirectUris: [REDIRECT_URI],
    });
    const otherClient = { clientId: other.application.clientId, clientSecret: other.clientSecret };
    const wrong = { clientId: client.clientId, clientSecret: 'wrong' };
    const active = (kind: 'access' | 'refresh', at = iat) => activeBody(client.clientId, at, kind);
    return [
      [client, { token: fresh.access_token }, 200, active('access')],
      [client, { token: fresh.refresh_token }, 200, active('refresh')],
      [client, { token: aged.access_token }, 200, INACTIVE],
      [client, { token: aged.refresh_token }, 200, active('refresh', agedIat)],
      [client, { token: revoked.access_token }, 200, INACTIVE],
      [client, { token: revoked.refresh_token }, 200, INACTIVE],
      [client, { token: 'unknown' }, 200, INACTIVE],
      [otherClient, { token: fresh.access_token }, 200, INACTIVE],
      [
        wrong,
        { token: fresh.access_token },
        401,
        expect.objectContaining({ error: 'invalid_client' }),
      ],
      [client, {}, 400, { error: 'invalid_request', error_description: 'token is required' }],
    ];
  }

  it('answers each of 30 concurrent introspections as it would alone', async () => {
    const cases = await mixedCases();
    const all = [...cases, ...cases, ...cases];
    const answers = await Promise.all(all.map(([who, form]) => introspect(who, form)));
    expect(answers.map((res) => [res.status, res.body])).toEqual(
      all.map(([, , status, body]) => [status, body]),
    );
  });

  it('reads in one batch statement what the lone statement reads for each request', async () => {
    const cases = await mixedCases();
    const now = t.clock.now();
    const lookups = cases.map(([who, form]) => ({
      clientId: who.clientId,
      tokenHash: form.token === undefined ? null : sha256Hex(form.token),
      now,
    }));
    const alone = await Promise.all(lookups.map((lookup) => introspectOne(t.dataSource, lookup)));
    const batch = await introspectMany(t.dataSource, [
      ...lookups,
      { clientId: 'no-such-client', tokenHash: null, now },
    ]);
    expect(batch).toEqual([...alone, null]);
    // Not all empty: three live tokens, and the wrong secret's (the service then refuses it).
    expect(alone.filter((row) => row?.access_token ?? row?.refresh_token)).toHaveLength(4);
  });

  it('is driven by openid-client (tokenIntrospection)', async () => {
    const oc: OpenIdClient = await import('openid-client');
    const { client, tokens, iat } = await issued();
    const base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    const config = new oc.Configuration(
      { issuer: ISSUER, introspection_endpoint: `${base}/api/oauth2/introspect` },
      client.clientId,
      client.clientSecret!,
      oc.ClientSecretPost(client.clientSecret!),
    );
    oc.allowInsecureRequests(config);
    const active = await oc.tokenIntrospection(config, tokens.access_token);
    expect(active).toEqual(activeBody(client.clientId, iat, 'access'));
    expect(await oc.tokenIntrospection(config, 'unknown')).toEqual(INACTIVE);
  });
});
