import {
  authorizeParams,
  authorizePath,
  browser,
  ISSUER,
  oauthSetup,
  pkce,
  query,
  REDIRECT_URI,
} from '../../../support/oauth';
import { createTestApp, TestApp } from '../../../support/test-app';

describe('GET /oauth2/authorize request validation', () => {
  let t: TestApp;
  let clientId: string;
  let secretClientId: string;
  const challenge = pkce().challenge;

  beforeAll(async () => {
    t = await createTestApp();
    await t.truncate();
    clientId = (await oauthSetup(t.app)).application.clientId;
    const secret = await oauthSetup(t.app, { authMethod: 'secret', username: 'bob' });
    secretClientId = secret.application.clientId;
  });
  afterAll(() => t.close());

  const get = (params: Record<string, string | undefined>) =>
    browser(t.app).get(authorizePath(params));
  const valid = (extra: Record<string, string | undefined> = {}) => ({
    ...authorizeParams({ clientId, challenge }),
    ...extra,
  });

  it.each([
    ['a missing client_id', { client_id: undefined }, 'Invalid request'],
    ['an unknown client_id', { client_id: 'nope' }, 'Unknown application'],
    ['a missing redirect_uri', { redirect_uri: undefined }, 'Invalid request'],
    [
      'an unregistered redirect_uri',
      { redirect_uri: 'https://evil.example/cb' },
      'Invalid redirect URI',
    ],
    [
      'a redirect_uri differing by a trailing slash',
      { redirect_uri: `${REDIRECT_URI}/` },
      'Invalid redirect URI',
    ],
    [
      'a redirect_uri with an extra query',
      { redirect_uri: `${REDIRECT_URI}?x=1` },
      'Invalid redirect URI',
    ],
  ])('renders an error page, never a redirect, for %s', async (_name, extra, title) => {
    const res = await get(valid(extra));
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.text).toContain(title);
    expect(res.text).not.toContain('evil.example');
  });

  it('does not redirect even when the other parameters are also wrong', async () => {
    const res = await get({
      client_id: clientId,
      redirect_uri: 'https://evil.example/cb',
      response_type: 'token',
    });
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
  });

  it.each([
    [
      'response_type=token',
      { response_type: 'token' },
      'unsupported_response_type',
      'Only response_type=code is supported',
    ],
    [
      'code_challenge_method=plain',
      { code_challenge_method: 'plain' },
      'invalid_request',
      'code_challenge_method must be S256',
    ],
    [
      'a missing code_challenge_method',
      { code_challenge_method: undefined },
      'invalid_request',
      'code_challenge_method must be S256',
    ],
    [
      'a challenge of 42 characters',
      { code_challenge: challenge.slice(1) },
      'invalid_request',
      'code_challenge must be 43 base64url characters (BASE64URL(SHA256(code_verifier)))',
    ],
    [
      'a challenge outside base64url',
      { code_challenge: `${challenge.slice(1)}+` },
      'invalid_request',
      'code_challenge must be 43 base64url characters (BASE64URL(SHA256(code_verifier)))',
    ],
    [
      'a none client without code_challenge',
      { code_challenge: undefined, code_challenge_method: undefined },
      'invalid_request',
      'Public clients must send a PKCE code_challenge',
    ],
    [
      'prompt=login',
      { prompt: 'login' },
      'invalid_request',
      'The only supported prompt value is none',
    ],
    [
      'prompt=none consent',
      { prompt: 'none consent' },
      'invalid_request',
      'prompt=none cannot be combined with other values',
    ],
  ])(
    'redirects %s with the error, the unchanged state and iss',
    async (_name, extra, error, description) => {
      const res = await get(valid({ state: 'a b&c=d', ...extra }));
      expect(res.status).toBe(302);
      const location = new URL(res.headers.location);
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
      expect(query(res.headers.location)).toEqual({
        error,
        error_description: description,
        state: 'a b&c=d',
        iss: ISSUER,
      });
    },
  );

  // Unknown values are ignored and no known scope means the default read (docs/oauth.md, "Scopes";
  // what is granted: oauth-scope.e2e-spec.ts).
  it('accepts read, lists of scopes, unknown values and a missing scope', async () => {
    for (const scope of [
      'read',
      'read email',
      'email profile read',
      'read write',
      'write',
      '',
      undefined,
    ]) {
      const res = await get(valid({ scope }));
      expect(res.status).toBe(302);
      expect(res.headers.location).toMatch(/^\/oauth2\/login\?request=/);
    }
  });

  it('names the issuer the request was sent to in the error redirect', async () => {
    const res = await browser(t.app).get(
      authorizePath(valid({ response_type: 'token' })).replace(
        '/oauth2/authorize',
        '/api/oidc/auth',
      ),
    );
    expect(res.status).toBe(302);
    expect(query(res.headers.location)).toMatchObject({
      error: 'unsupported_response_type',
      iss: `${ISSUER}/api/oidc`,
    });
  });

  it('lets a secret client omit PKCE', async () => {
    const res = await get(authorizeParams({ clientId: secretClientId }));
    expect(res.headers.location).toMatch(/^\/oauth2\/login\?request=/);
  });

  it('omits state from the error redirect when none was sent', async () => {
    const res = await get(valid({ state: undefined, response_type: 'token' }));
    expect(query(res.headers.location)).toEqual({
      error: 'unsupported_response_type',
      error_description: 'Only response_type=code is supported',
      iss: ISSUER,
    });
  });

  it('answers access_denied for a disabled application', async () => {
    await t.dataSource.query('UPDATE applications SET enabled = false WHERE client_id = $1', [
      clientId,
    ]);
    try {
      const res = await get(valid());
      expect(query(res.headers.location)).toEqual({
        error: 'access_denied',
        error_description: 'The application is disabled',
        state: 'st-123',
        iss: ISSUER,
      });
    } finally {
      await t.dataSource.query('UPDATE applications SET enabled = true WHERE client_id = $1', [
        clientId,
      ]);
    }
  });

  it('serves RFC 8414 metadata', async () => {
    const res = await t.http().get('/.well-known/oauth-authorization-server');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/oauth2/authorize`,
      token_endpoint: `${ISSUER}/api/oauth2/token`,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
    });
  });
});
