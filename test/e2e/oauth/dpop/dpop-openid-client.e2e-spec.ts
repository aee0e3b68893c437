import { DPOP_PROOF_MAX_AGE_SECONDS } from '../../../../src/modules/oauth/dpop/dpop-proof';
import { KEY_CACHE_SECONDS } from '../../../../src/modules/signing-keys/signing-keys.service';
import { createUser } from '../../../factories';
import { FetchBrowser } from '../../../support/fetch-browser';
import { oauthSetup, PASSWORD, REDIRECT_URI } from '../../../support/oauth';
import {
  clockSkewOf,
  listeningApp,
  openidFlow,
  type ClientConfig,
  type OpenIdClient,
} from '../../../support/oidc-client';
import { clientKey, jwksOf, keyedClient, loadJose } from '../../../support/private-key-jwt';
import type { TestApp } from '../../../support/test-app';

// DPoP (RFC 9449) driven by a certified relying-party library: openid-client 6 makes a fresh
// proof per request (its iat from the Configuration's clock skew, which clockSkewOf sets to the
// test clock's distance from the wall clock), learns the server's nonce from the first
// use_dpop_nonce answer and retries once with it, and keeps the nonce the answers carry.
describe('openid-client with DPoP (RFC 9449)', () => {
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
    // Past the signing keys' cache (no id_token signed with a truncated key), and further than
    // a proof may be old: a proof dated by the wall clock would be refused, so these tests pass
    // only because the library dates its proofs with the Configuration's clock skew (read when
    // the Configuration and its DPoP handle are made, hence before them).
    t.clock.advance((KEY_CACHE_SECONDS + DPOP_PROOF_MAX_AGE_SECONDS + 1) * 1000);
  });

  /** A public (`none`) client's Configuration, the library's clock on the service's. */
  async function publicClient(): Promise<ClientConfig> {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    return oc.discovery(new URL(base), application.clientId, clockSkewOf(oc, t), oc.None(), {
      execute: [oc.allowInsecureRequests, oc.enableNonRepudiationChecks],
    });
  }

  /** An access token presented as a plain bearer token at userinfo. */
  const asBearer = (accessToken: string) =>
    fetch(`${base}/api/oauth2/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });

  it('gets DPoP-bound tokens with openid-client and uses them at userinfo', async () => {
    const config = await publicClient();
    expect(config.serverMetadata().dpop_signing_alg_values_supported).toContain('ES256');
    const DPoP = oc.getDPoPHandle(config, await oc.randomDPoPKeyPair('ES256'));
    const { tokens } = await openidFlow(oc, config, base, 'alice', undefined, { DPoP });
    expect(tokens.token_type).toBe('dpop');
    const { sub } = tokens.claims()!;
    expect(await oc.fetchUserInfo(config, tokens.access_token, sub, { DPoP })).toMatchObject({
      sub,
      preferred_username: 'alice',
    });

    // A public client's refresh token is bound too: the refresh takes a proof of the same key.
    const refreshed = await oc.refreshTokenGrant(config, tokens.refresh_token!, undefined, {
      DPoP,
    });
    expect(refreshed.token_type).toBe('dpop');
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(await oc.fetchUserInfo(config, refreshed.access_token, sub, { DPoP })).toMatchObject({
      sub,
    });

    // The bound token without its proof, as a bearer token (RFC 9449 section 7.2).
    const bearer = await asBearer(refreshed.access_token);
    expect(bearer.status).toBe(401);
    expect(bearer.headers.get('www-authenticate')).toMatch(/^DPoP /);
    expect(bearer.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('runs PAR, private_key_jwt and DPoP together, as a FAPI 2.0 client does', async () => {
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
    const keyPair = await oc.randomDPoPKeyPair('ES256');
    const jose = await loadJose();
    const jkt = await jose.calculateJwkThumbprint(await jose.exportJWK(keyPair.publicKey));
    const DPoP = oc.getDPoPHandle(config, keyPair);

    const verifier = oc.randomPKCECodeVerifier();
    const state = oc.randomState();
    const nonce = oc.randomNonce();
    const url = await oc.buildAuthorizationUrlWithPAR(
      config,
      {
        redirect_uri: REDIRECT_URI,
        scope: 'openid profile email',
        code_challenge: await oc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      },
      { DPoP },
    );
    expect([...url.searchParams.keys()].sort()).toEqual(['client_id', 'request_uri']);
    const callback = await new FetchBrowser(base).authorize(url, 'erin');
    const tokens = await oc.authorizationCodeGrant(
      config,
      callback,
      {
        pkceCodeVerifier: verifier,
        expectedState: state,
        expectedNonce: nonce,
        idTokenExpected: true,
      },
      undefined,
      { DPoP },
    );
    expect(tokens.token_type).toBe('dpop');
    const { sub } = tokens.claims()!;
    expect(await oc.fetchUserInfo(config, tokens.access_token, sub, { DPoP })).toMatchObject({
      sub,
      preferred_username: 'erin',
    });

    const refreshed = await oc.refreshTokenGrant(config, tokens.refresh_token!, undefined, {
      DPoP,
    });
    expect(refreshed.token_type).toBe('dpop');
    expect(await oc.fetchUserInfo(config, refreshed.access_token, sub, { DPoP })).toMatchObject({
      sub,
    });
    expect(await oc.tokenIntrospection(config, refreshed.access_token)).toMatchObject({
      active: true,
      client_id: client.clientId,
      token_type: 'DPoP',
      cnf: { jkt },
    });
    // The push, the exchange and the refresh each spent an assertion of their own.
    const [{ count }] = await t.dataSource.query<{ count: string }[]>(
      'SELECT count(*) FROM oauth_client_assertion_jtis',
    );
    expect(Number(count)).toBe(4);
  });

  it("is refused at userinfo with another key's proof", async () => {
    const config = await publicClient();
    const keyA = oc.getDPoPHandle(config, await oc.randomDPoPKeyPair('ES256'));
    const keyB = oc.getDPoPHandle(config, await oc.randomDPoPKeyPair('ES256'));
    const { tokens } = await openidFlow(oc, config, base, 'alice', undefined, { DPoP: keyA });
    const { sub } = tokens.claims()!;

    const refused = await oc
      .fetchUserInfo(config, tokens.access_token, sub, { DPoP: keyB })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(oc.WWWAuthenticateChallengeError);
    expect(refused).toMatchObject({
      status: 401,
      cause: [
        expect.objectContaining({
          scheme: 'dpop',
          parameters: expect.objectContaining({ error: 'invalid_token' }),
        }),
      ],
    });
    // Key A's proof still works: the refusal spent nothing of the token.
    expect(await oc.fetchUserInfo(config, tokens.access_token, sub, { DPoP: keyA })).toMatchObject({
      sub,
    });
  });
});
