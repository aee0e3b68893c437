import { SessionService } from '../../../../src/modules/sessions/session.service';
import {
  approveFrom,
  authorizeInteractively,
  authorizeParams,
  authorizePath,
  browser,
  exchangeCode,
  expectStatus,
  ISSUER,
  oauthSetup,
  pkce,
  query,
  tokenRequest,
  type Agent,
} from '../../../support/oauth';
import { createTestApp, TestApp } from '../../../support/test-app';
import { TEST_SIGN_IN_CLIENT } from '../../../support/console';

type Body = { access_token: string; refresh_token: string; id_token?: string; scope?: string };
const claimsOf = (idToken: string | undefined): Record<string, unknown> =>
  JSON.parse(Buffer.from(idToken!.split('.')[1], 'base64url').toString()) as Record<
    string,
    unknown
  >;

// OIDC Core 5.3, 5.5 (claims parameter), 2 (acr, amr; RFC 8176).
describe('OpenID Connect claims parameter, profile claims, acr and amr', () => {
  let t: TestApp;
  let clientId: string;
  let userId: string;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    const setup = await oauthSetup(t.app);
    clientId = setup.application.clientId;
    userId = String(setup.user.id);
  });

  async function grant(scope: string, extra: Record<string, string> = {}, agent = browser(t.app)) {
    const { verifier, challenge } = pkce();
    const { code } = await authorizeInteractively(agent, { clientId, scope, challenge, extra });
    const res = await tokenRequest(t.app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: 'https://client.example/cb',
      client_id: clientId,
      code_verifier: verifier,
    });
    expectStatus(res, 200);
    return res.body as Body;
  }
  const userinfo = (token: string) =>
    t.http().get('/api/oauth2/userinfo').set('Authorization', `Bearer ${token}`);

  it('returns a claim requested for userinfo (essential name) with scope openid only', async () => {
    const claims = JSON.stringify({ userinfo: { name: { essential: true } } });
    const body = await grant('openid', { claims });
    expect(body.scope).toBe('openid profile');
    const res = await userinfo(body.access_token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ sub: userId, name: 'Alice', preferred_username: 'alice' });
  });

  it('returns email requested for the id_token', async () => {
    const claims = JSON.stringify({ id_token: { email: null, email_verified: null } });
    const body = await grant('openid', { claims });
    expect(claimsOf(body.id_token)).toMatchObject({
      email: 'alice@example.org',
      email_verified: true,
    });
  });

  it('asks consent again for claims an earlier grant did not cover', async () => {
    const agent = browser(t.app);
    await grant('openid', {}, agent);
    const claims = JSON.stringify({ userinfo: { email: null } });
    const params = authorizeParams({ clientId, scope: 'openid', challenge: pkce().challenge });
    const res = await agent.get(authorizePath({ ...params, claims }));
    expect(res.headers.location).toMatch(/^\/oauth2\/consent\?request=/);
    expect((await agent.get(res.headers.location)).text).toContain('<code>email</code>');
  });

  it('ignores claims we do not hold, essential or not', async () => {
    const claims = JSON.stringify({
      userinfo: { birthdate: { essential: true }, phone_number: null },
      id_token: { address: { essential: true } },
    });
    const body = await grant('openid', { claims });
    expect(body.scope).toBe('openid');
    expect((await userinfo(body.access_token)).body).toEqual({ sub: userId });
  });

  it.each(['{not json', '[]', '"x"', '{"userinfo":[]}', '{"id_token":{"email":true}}'])(
    'answers invalid_request for claims=%j',
    async (claims) => {
      const params = authorizeParams({ clientId, scope: 'openid', challenge: pkce().challenge });
      const res = await browser(t.app).get(authorizePath({ ...params, claims }));
      expect(query(res.headers.location)).toEqual({
        error: 'invalid_request',
        error_description:
          'The claims parameter must be a JSON object whose userinfo and id_token members are objects',
        state: 'st-123',
        iss: ISSUER,
      });
    },
  );

  it('ignores the claims parameter without openid, as before', async () => {
    const params = authorizeParams({ clientId, scope: 'read', challenge: pkce().challenge });
    const res = await browser(t.app).get(authorizePath({ ...params, claims: '{not json' }));
    expect(res.headers.location).toMatch(/^\/oauth2\/login\?request=/);
  });

  it('returns every profile claim we hold at userinfo, updated_at as seconds', async () => {
    const body = await grant('openid profile');
    const res = await userinfo(body.access_token);
    const row = (
      await t.dataSource.query<{ updated_at: Date }[]>('SELECT updated_at FROM users')
    )[0];
    expect(res.body).toMatchObject({
      name: 'Alice',
      preferred_username: 'alice',
      nickname: 'Alice',
      updated_at: Math.floor(row.updated_at.getTime() / 1000),
    });
  });

  it('states acr when acr_values is requested, and keeps it and amr on refresh', async () => {
    const body = await grant('openid', { acr_values: '1 2' });
    expect(claimsOf(body.id_token)).toMatchObject({ acr: '1', amr: ['pwd'] });
    const refreshed = await tokenRequest(t.app, {
      grant_type: 'refresh_token',
      refresh_token: body.refresh_token,
      client_id: clientId,
    });
    expectStatus(refreshed, 200);
    expect(claimsOf((refreshed.body as Body).id_token)).toMatchObject({ acr: '1', amr: ['pwd'] });
  });

  it('states acr requested through the claims parameter, and none when not requested', async () => {
    const claims = JSON.stringify({ id_token: { acr: { essential: true, values: ['2'] } } });
    expect(claimsOf((await grant('openid', { claims })).id_token).acr).toBe('1');
    expect(claimsOf((await grant('openid')).id_token)).not.toHaveProperty('acr');
  });

  it.each([
    ['passkey', ['hwk', 'user']],
    ['upstream', ['fed']],
  ] as const)('records amr of a %s session', async (method, amr) => {
    const agent: Agent = browser(t.app);
    const session = await t.app.get(SessionService).create(userId, method, TEST_SIGN_IN_CLIENT);
    const { verifier, challenge } = pkce();
    const params = authorizeParams({ clientId, scope: 'openid', challenge });
    const res = await agent
      .set('Cookie', `idsvc_session=${session.cookieValue}`)
      .get(authorizePath(params));
    const { code } = await approveFrom(agent, res.headers.location);
    const tokens = await exchangeCode(t.app, clientId, code, verifier);
    expect(claimsOf(tokens.id_token).amr).toEqual(amr);
  });

  it('lists the new claims and parameters in discovery', async () => {
    const res = await t.http().get('/.well-known/openid-configuration');
    expect(res.body).toMatchObject({
      claims_parameter_supported: true,
      acr_values_supported: ['1'],
      prompt_values_supported: ['none', 'login', 'consent', 'select_account'],
    });
    expect(res.body.claims_supported).toEqual(
      expect.arrayContaining(['acr', 'amr', 'nickname', 'updated_at']),
    );
  });
});
