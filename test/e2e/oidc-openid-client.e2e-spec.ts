import { KEY_CACHE_SECONDS } from '../../src/modules/signing-keys/signing-keys.service';
import { oauthSetup } from '../utils/oauth';
import {
  listeningApp,
  openidFlow,
  type ClientConfig,
  type OpenIdClient,
} from '../utils/oidc-client';
import type { TestApp } from '../utils/test-app';

// OpenID Connect Core 1.0 driven by a certified relying-party library, from discovery on.
describe('openid-client against the service (discovery, id_token, userinfo, refresh)', () => {
  let t: TestApp;
  let base: string;
  let oc: OpenIdClient;
  beforeAll(async () => {
    ({ t, base } = await listeningApp());
    oc = await import('openid-client');
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    // The truncated signing keys leave the service's view within KEY_CACHE_SECONDS: move past it,
    // so no id_token is signed with a deleted key.
    t.clock.advance((KEY_CACHE_SECONDS + 1) * 1000);
  });

  async function wholeFlow(config: ClientConfig, username: string) {
    const { tokens, nonce } = await openidFlow(oc, config, base, username);
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({
      iss: base,
      aud: config.clientMetadata().client_id,
      nonce,
      name: 'Alice',
      preferred_username: username,
      email: `${username}@example.org`,
      email_verified: true,
    });
    expect(typeof claims.sub).toBe('string');
    expect(typeof claims.auth_time).toBe('number');
    const info = await oc.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info).toMatchObject({ sub: claims.sub, preferred_username: username });
    const refreshed = await oc.refreshTokenGrant(config, tokens.refresh_token!);
    const again = refreshed.claims()!;
    expect(again.sub).toBe(claims.sub);
    expect(again.aud).toBe(claims.aud);
    expect(again.auth_time).toBe(claims.auth_time);
    expect(again.nonce).toBeUndefined();
  }

  it('runs the whole flow for a none client', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const config = await oc.discovery(new URL(base), application.clientId, undefined, oc.None(), {
      execute: [oc.allowInsecureRequests, oc.enableNonRepudiationChecks],
    });
    await wholeFlow(config, 'alice');
  });

  it('runs the whole flow for a secret client with client_secret_basic', async () => {
    const { application, clientSecret } = await oauthSetup(t.app, {
      authMethod: 'secret',
      username: 'bob',
    });
    const config = await oc.discovery(
      new URL(base),
      application.clientId,
      clientSecret!,
      oc.ClientSecretBasic(clientSecret!),
      { execute: [oc.allowInsecureRequests, oc.enableNonRepudiationChecks] },
    );
    await wholeFlow(config, 'bob');
  });

  it('runs the whole flow for a secret client with client_secret_post', async () => {
    const { application, clientSecret } = await oauthSetup(t.app, {
      authMethod: 'secret',
      username: 'carol',
    });
    const config = await oc.discovery(
      new URL(base),
      application.clientId,
      clientSecret!,
      oc.ClientSecretPost(clientSecret!),
      { execute: [oc.allowInsecureRequests, oc.enableNonRepudiationChecks] },
    );
    await wholeFlow(config, 'carol');
  });

  it('works through the original service paths, configured by hand', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const config = new oc.Configuration(
      {
        issuer: base,
        authorization_endpoint: `${base}/api/oidc/auth`,
        token_endpoint: `${base}/api/oidc/token`,
        userinfo_endpoint: `${base}/api/oidc/userinfo`,
        jwks_uri: `${base}/api/oidc/jwks`,
        authorization_response_iss_parameter_supported: true,
      },
      application.clientId,
      { token_endpoint_auth_method: 'none' },
      oc.None(),
    );
    oc.allowInsecureRequests(config);
    oc.enableNonRepudiationChecks(config);
    await wholeFlow(config, 'alice');
  });
});
