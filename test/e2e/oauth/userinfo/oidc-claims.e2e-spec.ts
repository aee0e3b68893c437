import { createHash } from 'node:crypto';
import { AppConfig } from '../../../../src/config/app-config';
import { KEY_CACHE_SECONDS } from '../../../../src/modules/signing-keys/signing-keys.service';
import {
  authorizeInteractively,
  browser,
  expectStatus,
  ISSUER,
  oauthSetup,
  pkce,
  REDIRECT_URI,
  tokenRequest,
} from '../../../support/oauth';
import { createTestApp, TestApp } from '../../../support/test-app';

type Jose = typeof import('jose', { with: { 'resolution-mode': 'import' } });
type TokenBody = Record<string, string | number>;

const NONCE = 'n-0S6_WzA2Mj';
const AVATAR = 'https://img.example/alice.png';
const PROFILE = { name: 'Alice', preferred_username: 'alice', picture: AVATAR };
const EMAIL = { email: 'alice@example.org', email_verified: true };
const SPEC_FIELDS = ['avatar', 'email', 'groups', 'id', 'nickname', 'upstreams', 'username'];

/** The exact id_token claims and userinfo of each scope set (OIDC Core 2, 3.1.3.6, 5.3, 5.4, 12.2). */
describe('OpenID Connect claims per scope (id_token, userinfo, refresh)', () => {
  let t: TestApp;
  let jose: Jose;
  let ttl: number;
  beforeAll(async () => {
    t = await createTestApp();
    jose = await import('jose');
    ttl = t.app.get(AppConfig).idTokenTtlSeconds;
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    // The truncated signing keys leave the service's view within KEY_CACHE_SECONDS: move past it.
    t.clock.advance((KEY_CACHE_SECONDS + 1) * 1000);
  });

  /**
   * Alice signs in and consents (the sign-in time is returned), then, 5 s later, the client
   * exchanges the code; `tokenForm` adds parameters to the token request.
   */
  async function grant(scope: string, extra: Record<string, string>, tokenForm = {}) {
    const { application, user } = await oauthSetup(t.app);
    await t.dataSource.query('UPDATE users SET avatar = $2 WHERE id = $1', [user.id, AVATAR]);
    const signedInAt = Math.floor(t.clock.now().getTime() / 1000);
    const { verifier, challenge } = pkce();
    const clientId = application.clientId;
    const { code } = await authorizeInteractively(browser(t.app), {
      clientId,
      scope,
      challenge,
      extra,
    });
    t.clock.advance(5_000);
    const res = await tokenRequest(t.app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: clientId,
      code_verifier: verifier,
      ...tokenForm,
    });
    expectStatus(res, 200);
    return { clientId, sub: String(user.id), signedInAt, body: res.body as TokenBody };
  }

  /** The id_token's payload, verified against the published JWKS at the service's time. */
  async function verified(idToken: unknown, clientId: string) {
    const jwks = (await t.http().get('/api/oidc/jwks')).body as { keys: [] };
    const { payload, protectedHeader } = await jose.jwtVerify(
      idToken as string,
      jose.createLocalJWKSet(jwks),
      { issuer: ISSUER, audience: clientId, algorithms: ['RS256'], currentDate: t.clock.now() },
    );
    expect(protectedHeader).toEqual({ alg: 'RS256', kid: expect.any(String), typ: 'JWT' });
    return payload;
  }

  // OIDC Core 3.1.3.6: base64url of the left half of SHA-256 of the access token's octets.
  const atHash = (accessToken: unknown): string =>
    createHash('sha256')
      .update(accessToken as string, 'ascii')
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  const now = (): number => Math.floor(t.clock.now().getTime() / 1000);
  const userinfo = (token: unknown) =>
    t
      .http()
      .get('/api/oauth2/userinfo')
      .set('Authorization', `Bearer ${token as string}`);

  it.each([
    ['openid', {}],
    ['openid profile', PROFILE],
    ['openid email', EMAIL],
    ['openid read', { ...PROFILE, ...EMAIL }],
    ['openid profile email', { ...PROFILE, ...EMAIL }],
  ])('signs exactly the claims %j releases', async (scope, released) => {
    const g = await grant(scope, { nonce: NONCE });
    expect(g.body.scope).toBe(scope);
    expect(await verified(g.body.id_token, g.clientId)).toEqual({
      iss: ISSUER,
      sub: g.sub,
      aud: g.clientId,
      iat: now(),
      exp: now() + ttl,
      auth_time: g.signedInAt,
      at_hash: atHash(g.body.access_token),
      nonce: NONCE,
      // RFC 8176: the session signed in with a password.
      amr: ['pwd'],
      // Back-Channel Logout 1.0 section 2.1: the granting session's sid.
      sid: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      ...released,
    });
  });

  it('takes the nonce bound to the code, never one sent to the token endpoint', async () => {
    const g = await grant('openid', { nonce: NONCE }, { nonce: 'sent-at-token' });
    expect((await verified(g.body.id_token, g.clientId)).nonce).toBe(NONCE);
  });

  it('signs no nonce when the authorization request sent none, whatever the token request says', async () => {
    const g = await grant('openid', {}, { nonce: 'sent-at-token' });
    expect(await verified(g.body.id_token, g.clientId)).not.toHaveProperty('nonce');
  });

  it('answers a request without openid exactly as before: no id_token, the contract userinfo', async () => {
    const g = await grant('read', { nonce: NONCE });
    expect(Object.keys(g.body).sort()).toEqual([
      'access_token',
      'expires_in',
      'refresh_token',
      'scope',
      'token_type',
    ]);
    const res = await userinfo(g.body.access_token);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body as object).sort()).toEqual(SPEC_FIELDS);
    expect(res.body).toMatchObject({ id: Number(g.sub), username: 'alice', avatar: AVATAR });
  });

  it('answers userinfo of an openid-only token with exactly sub', async () => {
    const g = await grant('openid', {});
    const res = await userinfo(g.body.access_token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ sub: g.sub });
  });

  it('answers userinfo of openid profile email with the contract fields and the standard claims', async () => {
    const g = await grant('openid profile email', {});
    const res = await userinfo(g.body.access_token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      sub: g.sub,
      id: Number(g.sub),
      username: 'alice',
      nickname: 'Alice',
      email: 'alice@example.org',
      avatar: AVATAR,
      groups: ['t0'],
      upstreams: [],
      name: 'Alice',
      preferred_username: 'alice',
      picture: AVATAR,
      email_verified: true,
      // OIDC Core 5.1: seconds since the epoch (the users row's last update).
      updated_at: expect.any(Number),
    });
  });

  it('refreshes an openid grant with a new id_token: same sub, aud and auth_time, no nonce', async () => {
    const g = await grant('openid profile email', { nonce: NONCE });
    const first = await verified(g.body.id_token, g.clientId);
    expect(first.nonce).toBe(NONCE);
    t.clock.advance(120_000);
    const res = await tokenRequest(t.app, {
      grant_type: 'refresh_token',
      refresh_token: g.body.refresh_token as string,
      client_id: g.clientId,
    });
    expectStatus(res, 200);
    const body = res.body as TokenBody;
    const kept = { ...first };
    delete kept.nonce;
    expect(await verified(body.id_token, g.clientId)).toEqual({
      ...kept,
      iat: now(),
      exp: now() + ttl,
      at_hash: atHash(body.access_token),
    });
    expect(body.id_token).not.toBe(g.body.id_token);
  });
});
