import {
  authorizeParams,
  authorizePath,
  browser,
  ISSUER,
  oauthSetup,
  pkce,
  query,
} from '../../../support/oauth';
import { createTestApp, TestApp } from '../../../support/test-app';

// An unsigned request object (alg none) carrying its own state and nonce (OIDC Core 6.1).
const REQUEST_OBJECT = [
  Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url'),
  Buffer.from(JSON.stringify({ state: 'inner-state', nonce: 'inner-nonce' })).toString('base64url'),
  '',
].join('.');

// OIDC Core 6.1 and 6.2: request and request_uri are refused as unsupported, never ignored.
describe('OpenID Connect request objects (request, request_uri)', () => {
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

  const authorize = (extra: Record<string, string>, scope = 'openid', redirectUri?: string) =>
    browser(t.app).get(
      authorizePath(
        authorizeParams({ clientId, scope, challenge: pkce().challenge, redirectUri, extra }),
      ),
    );

  it('answers request_not_supported with the outer state for a request object', async () => {
    const res = await authorize({ request: REQUEST_OBJECT, nonce: 'outer-nonce' });
    expect(res.status).toBe(302);
    expect(query(res.headers.location)).toEqual({
      error: 'request_not_supported',
      error_description: 'Request objects are not supported',
      state: 'st-123',
      iss: ISSUER,
    });
  });

  it('answers request_uri_not_supported for request_uri', async () => {
    const res = await authorize({ request_uri: 'https://client.example/request.jwt' });
    expect(query(res.headers.location)).toEqual({
      error: 'request_uri_not_supported',
      error_description: 'request_uri is not supported',
      state: 'st-123',
      iss: ISSUER,
    });
  });

  it('never redirects when the outer redirect_uri is not registered: the error page', async () => {
    const res = await authorize({ request: REQUEST_OBJECT }, 'openid', 'https://evil.example/cb');
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.headers['content-type']).toMatch(/^text\/html/);
  });

  it('ignores request and request_uri without openid, as before', async () => {
    const res = await authorize({ request: REQUEST_OBJECT, request_uri: 'x' }, 'read');
    expect(res.status).toBe(302);
    expect(res.headers.location).toMatch(/^\/oauth2\/login\?request=/);
  });

  it('says so in discovery', async () => {
    const res = await t.http().get('/.well-known/openid-configuration');
    expect(res.body).toMatchObject({
      request_parameter_supported: false,
      request_uri_parameter_supported: false,
    });
  });
});
