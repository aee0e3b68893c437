import { KEY_CACHE_SECONDS } from '../../../../src/modules/signing-keys/signing-keys.service';
import { deviceSetup } from '../../../support/device';
import { FetchBrowser } from '../../../support/fetch-browser';
import { hiddenInput, PASSWORD } from '../../../support/oauth';
import {
  clockSkewOf,
  listeningApp,
  type ClientConfig,
  type OpenIdClient,
} from '../../../support/oidc-client';
import type { TestApp } from '../../../support/test-app';

// RFC 8628 driven by a certified relying-party library: openid-client 6 finds the endpoint by
// discovery, starts the device authorization, and polls the token endpoint (waiting `interval`
// between polls) until the person, driven over HTTP through the pages, has approved; then it
// validates the id_token (signature included: enableNonRepudiationChecks).
describe('openid-client runs the device authorization grant (RFC 8628)', () => {
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

  /**
   * The person's part, as a browser does it: the link with the code (which only fills the form),
   * the form, the login page, the confirmation page, Approve.
   */
  async function approveAsPerson(verificationUriComplete: string, username: string) {
    const person = new FetchBrowser(base);
    const link = new URL(verificationUriComplete);
    const entry = await person.request(`${link.pathname}${link.search}`);
    expect(entry.status).toBe(200);
    const entryPage = await entry.text();
    const userCode = link.searchParams.get('user_code')!;
    expect(entryPage).toContain(`value="${userCode}"`);
    let res = await person.request('/device', {
      csrf_token: hiddenInput(entryPage, 'csrf_token'),
      user_code: userCode,
    });
    expect(res.status).toBe(303);
    const login = await person.request(res.headers.get('location')!);
    const loginPage = await login.text();
    res = await person.request('/oauth2/login', {
      request: hiddenInput(loginPage, 'request'),
      csrf_token: hiddenInput(loginPage, 'csrf_token'),
      username,
      password: PASSWORD,
    });
    expect(res.status).toBe(303);
    const confirm = await person.request(res.headers.get('location')!);
    expect(confirm.status).toBe(200);
    const confirmPage = await confirm.text();
    expect(confirmPage).toContain(`<code>${userCode}</code>`);
    const done = await person.request('/device/confirm', {
      request: hiddenInput(confirmPage, 'request'),
      csrf_token: hiddenInput(confirmPage, 'csrf_token'),
      decision: 'approve',
    });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('You may return to your device');
  }

  async function deviceFlow(config: ClientConfig, username: string) {
    expect(config.serverMetadata().device_authorization_endpoint).toBe(
      `${base}/oauth2/device_authorization`,
    );
    expect(config.serverMetadata().grant_types_supported).toContain(
      'urn:ietf:params:oauth:grant-type:device_code',
    );
    const started = await oc.initiateDeviceAuthorization(config, {
      scope: 'openid profile email',
    });
    expect(started.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(started.interval).toBe(5);
    await approveAsPerson(started.verification_uri_complete!, username);
    // The library waits the interval before its poll; the approval is in by then.
    const tokens = await oc.pollDeviceAuthorizationGrant(config, started);
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ iss: base, preferred_username: username, amr: ['pwd'] });
    expect(claims.auth_time).toEqual(expect.any(Number));
    expect(claims).not.toHaveProperty('nonce');
    expect(claims).not.toHaveProperty('sid');
    const info = await oc.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info).toMatchObject({ sub: claims.sub, preferred_username: username });
    return tokens;
  }

  it('gets tokens and a validated id_token for a public client', async () => {
    const { application } = await deviceSetup(t.app);
    const config = await oc.discovery(
      new URL(base),
      application.clientId,
      clockSkewOf(oc, t),
      oc.None(),
      { execute: [oc.allowInsecureRequests, oc.enableNonRepudiationChecks] },
    );
    const tokens = await deviceFlow(config, 'alice');
    // The refresh token works as any other's.
    const refreshed = await oc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
  });

  it('gets tokens for a confidential client authenticating with client_secret_basic', async () => {
    const { application, clientSecret } = await deviceSetup(t.app, { authMethod: 'secret' }, 'bob');
    const config = await oc.discovery(
      new URL(base),
      application.clientId,
      clockSkewOf(oc, t),
      oc.ClientSecretBasic(clientSecret!),
      { execute: [oc.allowInsecureRequests, oc.enableNonRepudiationChecks] },
    );
    await deviceFlow(config, 'bob');
  });
});
