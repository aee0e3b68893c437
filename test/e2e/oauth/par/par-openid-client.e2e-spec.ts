import { KEY_CACHE_SECONDS } from '../../../../src/modules/signing-keys/signing-keys.service';
import { FetchBrowser } from '../../../support/fetch-browser';
import { createUser } from '../../../factories';
import { oauthSetup, PASSWORD, REDIRECT_URI } from '../../../support/oauth';
import { clientKey, jwksOf, keyedClient } from '../../../support/private-key-jwt';
import {
  clockSkewOf,
  listeningApp,
  type ClientConfig,
  type OpenIdClient,
} from '../../../support/oidc-client';
import type { TestApp } from '../../../support/test-app';

// RFC 9126 driven by a certified relying-party library: discovery names the endpoint, the
// library pushes the request and sends the browser to /authorize with the request_uri only.
describe('openid-client pushes its authorization requests (RFC 9126)', () => {
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
    t.clock.advance((KEY_CACHE_SECONDS + 1) * 1000);
  });

  async function pushedFlow(config: ClientConfig, username: string, issuer: string) {
    const verifier = oc.randomPKCECodeVerifier();
    const state = oc.randomState();
    const nonce = oc.randomNonce();
    const url = await oc.buildAuthorizationUrlWithPAR(config, {
      redirect_uri: REDIRECT_URI,
      scope: 'openid profile email',
      code_challenge: await oc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    // Only client_id and the request_uri travel through the browser (RFC 9126 section 4).
    expect([...url.searchParams.keys()].sort()).toEqual(['client_id', 'request_uri']);
    expect(url.searchParams.get('request_uri')).toMatch(
      /^urn:ietf:params:oauth:request_uri:[A-Za-z0-9_-]{43}$/,
    );
    const callback = await new FetchBrowser(base).authorize(url, username);
    expect(callback.searchParams.get('iss')).toBe(issuer);
    const tokens = await oc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ iss: issuer, nonce, preferred_username: username });
    const info = await oc.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info).toMatchObject({ sub: claims.sub, preferred_username: username });
  }

  it('runs the whole pushed flow for a secret client (client_secret_basic)', async () => {
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
    expect(config.serverMetadata().pushed_authorization_request_endpoint).toBe(
      `${base}/oauth2/par`,
    );
    await pushedFlow(config, 'bob', base);
  });

  it('runs the whole pushed flow for a secret client (client_secret_post)', async () => {
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
    await pushedFlow(config, 'carol', base);
  });

  it('runs the whole pushed flow for a none client, authenticated by its client_id', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const config = await oc.discovery(new URL(base), application.clientId, undefined, oc.None(), {
      execute: [oc.allowInsecureRequests, oc.enableNonRepudiationChecks],
    });
    await pushedFlow(config, 'alice', base);
  });

  it('runs the whole pushed flow for a private_key_jwt client, its assertion at the push too', async () => {
    const key = await clientKey('ES256');
    const client = await keyedClient(t.app, { jwks: jwksOf(key) });
    await createUser(t.app, {
      username: 'erin',
      email: 'erin@example.org',
      password: PASSWORD,
      emailVerified: true,
    });
    const config = await oc.discovery(
      new URL(base),
      client.clientId,
      clockSkewOf(oc, t),
      oc.PrivateKeyJwt({ key: key.privateKey, kid: key.kid }),
      { execute: [oc.allowInsecureRequests, oc.enableNonRepudiationChecks] },
    );
    await pushedFlow(config, 'erin', base);
    // Both the push and the code exchange spent an assertion of their own.
    const [{ count }] = await t.dataSource.query<{ count: string }[]>(
      'SELECT count(*) FROM oauth_client_assertion_jtis',
    );
    expect(Number(count)).toBe(2);
  });

  it('pushes to /api/oidc/par from the discovery of the issuer {base}/api/oidc', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const issuer = `${base}/api/oidc`;
    const config = await oc.discovery(new URL(issuer), application.clientId, undefined, oc.None(), {
      execute: [oc.allowInsecureRequests, oc.enableNonRepudiationChecks],
    });
    expect(config.serverMetadata().pushed_authorization_request_endpoint).toBe(`${issuer}/par`);
    await pushedFlow(config, 'alice', issuer);
  });
});
