import { KEY_CACHE_SECONDS } from '../../../../src/modules/signing-keys/signing-keys.service';
import { oauthSetup } from '../../../support/oauth';
import {
  listeningApp,
  openidFlow,
  type ClientConfig,
  type OpenIdClient,
} from '../../../support/oidc-client';
import type { TestApp } from '../../../support/test-app';

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

  async function wholeFlow(config: ClientConfig, username: string, issuer = base) {
    expect(config.serverMetadata().issuer).toBe(issuer);
    const { tokens, nonce } = await openidFlow(oc, config, base, username);
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({
      iss: issuer,
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
    expect(again.iss).toBe(issuer);
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

  // The issuer integrations of the original service configure: its own discovery document, whose
  // endpoints are the /api/oidc paths; an authorization sent there answers as that issuer.
  it('runs the whole flow from the discovery of the issuer {base}/api/oidc', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const issuer = `${base}/api/oidc`;
    const config = await oc.discovery(new URL(issuer), application.clientId, undefined, oc.None(), {
      execute: [oc.allowInsecureRequests, oc.enableNonRepudiationChecks],
    });
    expect(config.serverMetadata()).toMatchObject({
      authorization_endpoint: `${issuer}/auth`,
      token_endpoint: `${issuer}/token`,
      userinfo_endpoint: `${issuer}/userinfo`,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      end_session_endpoint: `${issuer}/logout`,
    });
    await wholeFlow(config, 'alice', issuer);
  });

  it('finds the {base}/api/oidc issuer by RFC 8414 discovery too', async () => {
    const { application, clientSecret } = await oauthSetup(t.app, {
      authMethod: 'secret',
      username: 'bob',
    });
    const issuer = `${base}/api/oidc`;
    const config = await oc.discovery(
      new URL(issuer),
      application.clientId,
      clientSecret!,
      oc.ClientSecretBasic(clientSecret!),
      {
        algorithm: 'oauth2',
        execute: [oc.allowInsecureRequests, oc.enableNonRepudiationChecks],
      },
    );
    await wholeFlow(config, 'bob', issuer);
  });

  it('keeps each issuer to its own flows, one user signing in to both', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const discover = (issuer: string) =>
      oc.discovery(new URL(issuer), application.clientId, undefined, oc.None(), {
        execute: [oc.allowInsecureRequests, oc.enableNonRepudiationChecks],
      });
    const alias = await openidFlow(oc, await discover(`${base}/api/oidc`), base, 'alice');
    const canonical = await openidFlow(oc, await discover(base), base, 'alice');
    expect(alias.tokens.claims()!.iss).toBe(`${base}/api/oidc`);
    expect(canonical.tokens.claims()!.iss).toBe(base);
  });

  it('accepts an id_token of the {base}/api/oidc issuer as id_token_hint at its logout', async () => {
    const { application } = await oauthSetup(t.app, { authMethod: 'none' });
    const config = await oc.discovery(
      new URL(`${base}/api/oidc`),
      application.clientId,
      undefined,
      oc.None(),
      { execute: [oc.allowInsecureRequests, oc.enableNonRepudiationChecks] },
    );
    const { tokens } = await openidFlow(oc, config, base, 'alice');
    const url = oc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token! });
    // Nobody is signed in in this fetch: a valid hint signs out at once ("Signed out").
    const res = await fetch(url, { redirect: 'manual' });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Signed out');
  });
});
