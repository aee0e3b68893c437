import { FetchBrowser } from '../../../support/fetch-browser';
import { ISSUER, oauthSetup, REDIRECT_URI } from '../../../support/oauth';
import { createTestApp, TestApp } from '../../../support/test-app';

type OpenIdClient = typeof import('openid-client', { with: { 'resolution-mode': 'import' } });

describe('A real OAuth client (openid-client) against the running service', () => {
  let t: TestApp;
  let oc: OpenIdClient;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp();
    oc = await import('openid-client');
    base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  function serverMetadata() {
    return {
      issuer: ISSUER,
      authorization_endpoint: `${base}/oauth2/authorize`,
      token_endpoint: `${base}/api/oauth2/token`,
      authorization_response_iss_parameter_supported: true,
    };
  }

  async function runFlow(config: InstanceType<OpenIdClient['Configuration']>, username: string) {
    oc.allowInsecureRequests(config);
    const verifier = oc.randomPKCECodeVerifier();
    const state = oc.randomState();
    const url = oc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: 'read email',
      code_challenge: await oc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    const callback = await new FetchBrowser(base).authorize(url, username);
    const tokens = await oc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(tokens.token_type).toBe('bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.scope).toBe('read email');
    const info = await oc.fetchProtectedResource(
      config,
      tokens.access_token,
      new URL(`${base}/api/oauth2/userinfo`),
      'GET',
    );
    expect(info.status).toBe(200);
    expect(await info.json()).toMatchObject({ username, groups: ['t0'], upstreams: [] });
    const refreshed = await oc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    const emails = await oc.fetchProtectedResource(
      config,
      refreshed.access_token,
      new URL(`${base}/api/oauth2/user/emails`),
      'GET',
    );
    expect(await emails.json()).toEqual([
      { email: `${username}@example.org`, verified: true, primary: true, visibility: 'public' },
    ]);
  }

  it('completes authorization code + PKCE for a none client', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const config = new oc.Configuration(
      serverMetadata(),
      application.clientId,
      { token_endpoint_auth_method: 'none' },
      oc.None(),
    );
    await runFlow(config, 'alice');
  });

  it('completes the flow for a secret client with client_secret_basic', async () => {
    const { application, clientSecret } = await oauthSetup(t.app, {
      authMethod: 'secret',
      username: 'bob',
    });
    const config = new oc.Configuration(
      serverMetadata(),
      application.clientId,
      clientSecret!,
      oc.ClientSecretBasic(clientSecret!),
    );
    await runFlow(config, 'bob');
  });

  it('completes the flow for a secret client with client_secret_post', async () => {
    const { application, clientSecret } = await oauthSetup(t.app, {
      authMethod: 'secret',
      username: 'carol',
    });
    const config = new oc.Configuration(
      serverMetadata(),
      application.clientId,
      clientSecret!,
      oc.ClientSecretPost(clientSecret!),
    );
    await runFlow(config, 'carol');
  });

  it('serves RFC 8414 metadata describing what the client was configured with', async () => {
    const res = await fetch(`${base}/.well-known/oauth-authorization-server`);
    const metadata = (await res.json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      issuer: ISSUER,
      response_types_supported: ['code'],
      grant_types_supported: [
        'authorization_code',
        'refresh_token',
        'urn:ietf:params:oauth:grant-type:device_code',
      ],
      token_endpoint_auth_methods_supported: [
        'client_secret_basic',
        'client_secret_post',
        'private_key_jwt',
        'none',
      ],
      code_challenge_methods_supported: ['S256'],
    });
  });
});
