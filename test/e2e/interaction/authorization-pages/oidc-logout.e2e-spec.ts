import { generateKeyPairSync } from 'node:crypto';
import { ApplicationsService } from '../../../../src/modules/applications/applications.service';
import { AppConfig } from '../../../../src/config/app-config';
import {
  CLOCK_SKEW_SECONDS,
  KEY_CACHE_SECONDS,
  SigningKeysService,
} from '../../../../src/modules/signing-keys/signing-keys.service';
import { createApplication, createUser } from '../../../factories';
import {
  authorizeInteractively,
  authorizeParams,
  authorizePath,
  browser,
  exchangeCode,
  expectStatus,
  hiddenInput,
  ISSUER,
  oauthSetup,
  PASSWORD,
  pkce,
  query,
  REDIRECT_URI,
  type Agent,
} from '../../../support/oauth';
import { createTestApp, TestApp } from '../../../support/test-app';

type Jose = typeof import('jose', { with: { 'resolution-mode': 'import' } });
type OpenIdClient = typeof import('openid-client', { with: { 'resolution-mode': 'import' } });

const BYE = 'https://client.example/bye';
const STATE = 'st 1/ä&x=y';

/** OpenID Connect RP-Initiated Logout 1.0 at /oauth2/logout (docs/oidc.md). */
describe('RP-initiated logout (end_session_endpoint)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    // The truncated signing keys leave this instance's view within KEY_CACHE_SECONDS (as a
    // change by another instance would): move past it, so no test signs with a deleted key.
    t.clock.advance((KEY_CACHE_SECONDS + 1) * 1000);
  });

  interface SignedIn {
    agent: Agent;
    clientId: string;
    idToken: string;
  }

  /**
   * A browser signed in as `username` through a `scope=openid` authorization flow, and the
   * id_token of that flow's token response (the hint a relying party would send).
   */
  async function signIn(clientId: string, username: string): Promise<SignedIn> {
    const agent = browser(t.app);
    const { verifier, challenge } = pkce();
    const { code } = await authorizeInteractively(agent, {
      clientId,
      challenge,
      username,
      scope: 'openid',
    });
    const { id_token: idToken } = await exchangeCode(t.app, clientId, code, verifier);
    if (typeof idToken !== 'string') throw new Error('the openid token response has no id_token');
    return { agent, clientId, idToken };
  }

  async function setup(): Promise<SignedIn> {
    const { application } = await oauthSetup(t.app);
    await t.app.get(ApplicationsService).update(application.id, { postLogoutRedirectUris: [BYE] });
    return signIn(application.clientId, 'alice');
  }

  const logout = (agent: Agent, params: Record<string, string>) =>
    agent.get(`/oauth2/logout?${new URLSearchParams(params).toString()}`);

  /** prompt=none: true while the browser's session stands, false once it is gone. */
  async function stillSignedIn({ agent, clientId }: SignedIn): Promise<boolean> {
    // The scope the user consented to at signIn, so that only the session decides the answer.
    const params = authorizeParams({ clientId, scope: 'openid', challenge: pkce().challenge });
    const res = await agent.get(authorizePath({ ...params, prompt: 'none' }));
    expectStatus(res, 302);
    const answer = query(res.headers.location);
    if (answer.error !== undefined) expect(answer.error).toBe('login_required');
    return answer.code !== undefined;
  }

  /** The "Signed out" page (200, no redirect) with exactly one link: to `href`. */
  const expectSignedOutPage = (
    res: { status: number; text: string; headers: Record<string, string> },
    href: string,
  ): void => {
    expect(res.status).toBe(200);
    expect(res.headers).not.toHaveProperty('location');
    expect(res.text).toContain('You are signed out.');
    const links = [...res.text.matchAll(/<a href="([^"]*)">([^<]*)<\/a>/g)];
    const unescape = (v: string) => v.replace(/&amp;/g, '&').replace(/&#39;/g, "'");
    expect(links.map((m) => [unescape(m[1]), m[2].trim()])).toEqual([[href, 'Return to Demo App']]);
  };

  const expectRefused = (res: { status: number; text: string; headers: object }): void => {
    expect(res.status).toBe(400);
    expect(res.headers).not.toHaveProperty('location');
    expect(res.text).toContain('Invalid logout request');
  };

  it('signs out at once with a valid hint of the signed-in user and redirects with exactly the state', async () => {
    const s = await setup();
    const res = await logout(s.agent, {
      id_token_hint: s.idToken,
      post_logout_redirect_uri: BYE,
      state: STATE,
      ui_locales: 'fr',
    });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(`${BYE}?${new URLSearchParams({ state: STATE }).toString()}`);
    expect(query(res.headers.location)).toEqual({ state: STATE });
    expect(String(res.headers['set-cookie'])).toMatch(/idsvc_session=;/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(await stillSignedIn(s)).toBe(false);
  });

  it.each(['PS256', 'ES256', 'EdDSA'] as const)(
    'signs out with the hint of a client whose id_tokens are signed %s',
    async (alg) => {
      const { application } = await oauthSetup(t.app);
      await t.app.get(ApplicationsService).update(application.id, {
        postLogoutRedirectUris: [BYE],
        idTokenSignedResponseAlg: alg,
      });
      const s = await signIn(application.clientId, 'alice');
      const header = JSON.parse(Buffer.from(s.idToken.split('.')[0], 'base64url').toString()) as {
        alg: string;
      };
      expect(header.alg).toBe(alg);
      const res = await logout(s.agent, {
        id_token_hint: s.idToken,
        post_logout_redirect_uri: BYE,
        state: 's',
      });
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe(`${BYE}?state=s`);
      expect(await stillSignedIn(s)).toBe(false);
    },
  );

  it('accepts an expired hint (section 2), and shows "Signed out" without a redirect URI', async () => {
    const s = await setup();
    const { idTokenTtlSeconds } = t.app.get(AppConfig);
    t.clock.advance((idTokenTtlSeconds + CLOCK_SKEW_SECONDS + 1) * 1000);
    const keys = t.app.get(SigningKeysService);
    expect(await keys.verify(s.idToken)).toBeNull();
    const res = await logout(s.agent, { id_token_hint: s.idToken });
    expect(res.status).toBe(200);
    expect(res.text).toContain('You are signed out.');
    expect(await stillSignedIn(s)).toBe(false);
    // Nobody signed in any more: a page with a link, no redirect (below).
    const again = await logout(s.agent, {
      id_token_hint: s.idToken,
      post_logout_redirect_uri: BYE,
    });
    expectSignedOutPage(again, BYE);
  });

  it('never redirects a visitor who is not signed in: a page with a link to the application', async () => {
    const s = await setup();
    const visitor = browser(t.app);
    const params = { id_token_hint: s.idToken, post_logout_redirect_uri: BYE, state: STATE };
    const withState = `${BYE}?${new URLSearchParams({ state: STATE }).toString()}`;
    for (const path of ['/oauth2/logout', '/api/oidc/logout']) {
      const res = await visitor.get(`${path}?${new URLSearchParams(params).toString()}`);
      expectSignedOutPage(res, withState);
    }
    // Expired too (section 2 accepts it): still only a link.
    t.clock.advance((t.app.get(AppConfig).idTokenTtlSeconds + CLOCK_SKEW_SECONDS + 1) * 1000);
    expectSignedOutPage(await logout(visitor, params), withState);
    // The hint's owner is not signed out by someone else's visit.
    expect(await stillSignedIn(s)).toBe(true);
  });

  it('refuses a hint signed by a foreign key, never redirecting, and keeps the session', async () => {
    const s = await setup();
    const jose: Jose = await import('jose');
    const { kid } = jose.decodeProtectedHeader(s.idToken);
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const forged = await new jose.SignJWT(jose.decodeJwt(s.idToken))
      .setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' })
      .sign(privateKey);
    for (const hint of [forged, `${s.idToken}x`, 'not-a-jwt']) {
      expectRefused(
        await logout(s.agent, { id_token_hint: hint, post_logout_redirect_uri: BYE, state: 's' }),
      );
    }
    expect(await stillSignedIn(s)).toBe(true);
  });

  it('refuses an unregistered post_logout_redirect_uri, or one without a client, with a page', async () => {
    const s = await setup();
    const cases: Record<string, string>[] = [
      { id_token_hint: s.idToken, post_logout_redirect_uri: 'https://evil.example/bye' },
      { id_token_hint: s.idToken, post_logout_redirect_uri: `${BYE}/` },
      { id_token_hint: s.idToken, post_logout_redirect_uri: REDIRECT_URI },
      { post_logout_redirect_uri: BYE, state: 's' },
      { client_id: 'unknown', post_logout_redirect_uri: BYE },
    ];
    for (const params of cases) {
      expectRefused(await logout(s.agent, params));
    }
    expect(await stillSignedIn(s)).toBe(true);
  });

  it('refuses a client_id that disagrees with the hint’s aud', async () => {
    const s = await setup();
    const other = await createApplication(t.app, { postLogoutRedirectUris: [BYE] });
    const res = await logout(s.agent, {
      id_token_hint: s.idToken,
      client_id: other.application.clientId,
      post_logout_redirect_uri: BYE,
    });
    expectRefused(res);
    expect(res.text).toContain('client_id does not match');
    expect(await stillSignedIn(s)).toBe(true);
  });

  it('without a hint asks first; the form signs out and links to the application with the state', async () => {
    const s = await setup();
    const page = await logout(s.agent, {
      client_id: s.clientId,
      post_logout_redirect_uri: BYE,
      state: STATE,
    });
    expect(page.status).toBe(200);
    // The form's answer is a page of ours, never a redirect (section 3: no hint, no redirect).
    expect(page.headers['content-security-policy']).toContain("form-action 'self';");
    expect(await stillSignedIn(s)).toBe(true);
    const form = {
      csrf_token: hiddenInput(page.text, 'csrf_token'),
      logout_request: hiddenInput(page.text, 'logout_request'),
    };
    // The redirect travels sealed: it is not in the page, and a changed one is refused.
    expect(page.text).not.toContain('client.example');
    const sealed = form.logout_request;
    const flipped = sealed[20] === 'A' ? 'B' : 'A';
    const altered = { ...form, logout_request: sealed.slice(0, 20) + flipped + sealed.slice(21) };
    expect((await s.agent.post('/oauth2/logout').type('form').send(altered)).status).toBe(400);

    const out = await s.agent.post('/oauth2/logout').type('form').send(form);
    expectSignedOutPage(out, `${BYE}?${new URLSearchParams({ state: STATE }).toString()}`);
    expect(await stillSignedIn(s)).toBe(false);
  });

  it('refuses the form without its CSRF token (403), or once the sealed request expired (400)', async () => {
    const s = await setup();
    const page = await logout(s.agent, { client_id: s.clientId, post_logout_redirect_uri: BYE });
    const logoutRequest = hiddenInput(page.text, 'logout_request');
    const noCsrf = await s.agent
      .post('/oauth2/logout')
      .type('form')
      .send({ logout_request: logoutRequest });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.text).toContain('Form expired');
    expect(noCsrf.headers['set-cookie']).toBeUndefined();
    t.clock.advance(11 * 60 * 1000);
    const late = await s.agent
      .post('/oauth2/logout')
      .type('form')
      .send({ csrf_token: hiddenInput(page.text, 'csrf_token'), logout_request: logoutRequest });
    expect([late.status, late.headers.location]).toEqual([400, undefined]);
    expect(await stillSignedIn(s)).toBe(true);
  });

  it('asks for confirmation when the hint names another user', async () => {
    const s = await setup();
    await createUser(t.app, { username: 'bob', email: 'bob@example.org', password: PASSWORD });
    const bob = await signIn(s.clientId, 'bob');
    const page = await logout(s.agent, {
      id_token_hint: bob.idToken,
      post_logout_redirect_uri: BYE,
    });
    expect(page.status).toBe(200);
    expect(page.headers).not.toHaveProperty('location');
    expect(hiddenInput(page.text, 'logout_request')).not.toBe('');
    // Section 2: the OP must ask; nobody is signed out until the user confirms.
    expect(await stillSignedIn(s)).toBe(true);
    expect(await stillSignedIn(bob)).toBe(true);
    const out = await s.agent
      .post('/oauth2/logout')
      .type('form')
      .send({
        csrf_token: hiddenInput(page.text, 'csrf_token'),
        logout_request: hiddenInput(page.text, 'logout_request'),
      });
    expectSignedOutPage(out, BYE);
    expect(await stillSignedIn(s)).toBe(false);
    expect(await stillSignedIn(bob)).toBe(true);
  });

  it('answers at the original service’s path /api/oidc/logout too', async () => {
    const s = await setup();
    const params = { id_token_hint: s.idToken, post_logout_redirect_uri: BYE, state: 'x' };
    const res = await s.agent.get(`/api/oidc/logout?${new URLSearchParams(params).toString()}`);
    expect([res.status, res.headers.location]).toEqual([302, `${BYE}?state=x`]);
    expect(await stillSignedIn(s)).toBe(false);
  });

  it('is driven by openid-client: buildEndSessionUrl from discovery', async () => {
    const s = await setup();
    const oc: OpenIdClient = await import('openid-client');
    const base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    // The issuer is PUBLIC_BASE_URL; requests for it go to the test server's real port.
    const viaTestServer = (url: string, init: RequestInit): Promise<Response> =>
      fetch(url.replace(ISSUER, base), init);
    const config = await oc.discovery(new URL(ISSUER), s.clientId, undefined, oc.None(), {
      execute: [oc.allowInsecureRequests],
      [oc.customFetch]: viaTestServer,
    });
    const url = oc.buildEndSessionUrl(config, {
      id_token_hint: s.idToken,
      post_logout_redirect_uri: BYE,
      state: 'from-openid-client',
    });
    expect(url.origin + url.pathname).toBe(`${ISSUER}/oauth2/logout`);
    const res = await s.agent.get(url.pathname + url.search);
    expect([res.status, res.headers.location]).toEqual([302, `${BYE}?state=from-openid-client`]);
    expect(await stillSignedIn(s)).toBe(false);
  });
});
