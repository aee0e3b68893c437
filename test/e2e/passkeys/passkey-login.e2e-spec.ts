import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { PASSKEY_SCRIPT_URL } from '../../../src/modules/passkeys/sign-in/passkey-script';
import { PasskeySignInService } from '../../../src/modules/passkeys/sign-in/passkey-sign-in.service';
import { PendingAuthorizationsService } from '../../../src/modules/oauth/authorize/pending-authorizations.service';
import { Csrf } from '../../../src/modules/sessions/csrf';
import { UpstreamProvidersService } from '../../../src/modules/upstreams/providers/upstream-providers.service';
import { relate } from '../../factories/app-users';
import { consoleSession } from '../../support/console';
import {
  approveFrom,
  authorizeParams,
  authorizePath,
  browser,
  exchangeCode,
  expectStatus,
  hiddenInput,
  ISSUER,
  oauthSetup,
  pkce,
  query,
  type Agent,
} from '../../support/oauth';
import { newAuthenticator, registerPasskey } from '../../support/passkeys';
import type {
  CeremonyOverrides,
  SoftwareAuthenticator,
} from '../../support/software-authenticator';
import { createTestApp, TestApp } from '../../support/test-app';

const FAILED = 'That passkey could not be used to sign in.';
const CONSENT_CSP =
  "default-src 'none'; style-src 'self'; img-src https: data:; " +
  "form-action 'self' https://client.example; frame-ancestors 'none'; base-uri 'none'";

interface OptionsBody {
  ceremonyId: string;
  options: PublicKeyCredentialRequestOptionsJSON;
}

const claimsOf = (idToken: string | undefined): Record<string, unknown> =>
  JSON.parse(Buffer.from(idToken!.split('.')[1], 'base64url').toString()) as Record<
    string,
    unknown
  >;

/**
 * "Sign in with a passkey" on the OAuth login page (docs/oauth.md, "Passkey sign-in"), at the
 * HTTP level with the software authenticator: the page, the options route, the form POST of the
 * assertion, and what follows (consent, code, id_token amr).
 */
describe('OAuth login with a passkey', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  /** alice with a passkey on `authenticator`, registered through the console's API. */
  async function aliceWithPasskey() {
    const setup = await oauthSetup(t.app);
    const authenticator = newAuthenticator();
    const console = await consoleSession(t, setup.user.id);
    await registerPasskey(console, authenticator);
    return { ...setup, authenticator };
  }

  /** /oauth2/authorize → the login page in `agent`; the page and its form fields. */
  async function loginPage(agent: Agent, clientId: string, extra: Record<string, string> = {}) {
    const { verifier, challenge } = pkce();
    const start = await agent.get(
      authorizePath(authorizeParams({ clientId, challenge, scope: 'openid read', extra })),
    );
    expectStatus(start, 302);
    const page = await agent.get(start.headers.location);
    expectStatus(page, 200);
    const fields = {
      request: hiddenInput(page.text, 'request'),
      csrf_token: hiddenInput(page.text, 'csrf_token'),
    };
    return { page, fields, verifier };
  }

  const startPasskey = (agent: Agent, fields: Record<string, string>) =>
    agent.post('/oauth2/login/passkey/options').type('form').send(fields);

  async function options(agent: Agent, fields: Record<string, string>): Promise<OptionsBody> {
    const res = await startPasskey(agent, fields);
    expectStatus(res, 200);
    return res.body as OptionsBody;
  }

  /** Options, the authenticator's assertion and the form POST, as the page's script does it. */
  async function signInWithPasskey(
    agent: Agent,
    fields: Record<string, string>,
    authenticator: SoftwareAuthenticator,
    overrides: CeremonyOverrides = {},
  ) {
    const started = await options(agent, fields);
    const assertion = authenticator.getAssertion(started.options, overrides);
    const form = {
      ...fields,
      ceremony_id: started.ceremonyId,
      assertion: JSON.stringify(assertion),
    };
    return { res: await agent.post('/oauth2/login/passkey').type('form').send(form), form };
  }

  /** The auth methods of the sessions, in alphabetical order (rows have no order). */
  const sessions = async (): Promise<string[]> =>
    (
      await t.dataSource.query<{ auth_method: string }[]>(
        'SELECT auth_method FROM oauth_sessions ORDER BY auth_method',
      )
    ).map((row) => row.auth_method);

  const setCookies = (res: { headers: Record<string, unknown> }): string[] =>
    (res.headers['set-cookie'] as string[] | undefined) ?? [];

  it('signs in with a passkey: consent, a code, and an id_token with amr ["hwk","user"]', async () => {
    const { application, user, authenticator } = await aliceWithPasskey();
    const agent = browser(t.app);
    const { page, fields, verifier } = await loginPage(agent, application.clientId, {
      acr_values: '1',
    });
    // The password form is unchanged; passkeys come in its username's autofill and a form of
    // their own, hidden until the script shows it.
    expect(page.text).toContain('name="password"');
    expect(page.text).toContain('autocomplete="username webauthn"');
    expect(page.text).toMatch(
      /<form\s+method="post"\s+action="\/oauth2\/login\/passkey"\s+class="passkey-sign-in"\s+data-passkey-options="\/oauth2\/login\/passkey\/options"\s+hidden\s*>/,
    );
    expect(page.text).toContain(`<script src="${PASSKEY_SCRIPT_URL}" defer></script>`);
    // No inline script, handler or style: the CSP allows this origin's files only.
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(page.text).not.toMatch(/\son[a-z]+=/);
    expect(page.text).not.toMatch(/<style|style=/);

    const started = await startPasskey(agent, fields);
    expect(started.status).toBe(200);
    expect(started.headers['cache-control']).toBe('no-store');
    expect(started.body).toEqual({
      ceremonyId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      options: expect.objectContaining({
        rpId: '127.0.0.1',
        allowCredentials: [],
        userVerification: 'required',
      }),
    });
    const assertion = authenticator.getAssertion((started.body as OptionsBody).options);
    const res = await agent
      .post('/oauth2/login/passkey')
      .type('form')
      .send({
        ...fields,
        ceremony_id: (started.body as OptionsBody).ceremonyId,
        assertion: JSON.stringify(assertion),
      });
    expectStatus(res, 303);
    expect(res.headers.location).toMatch(/^\/oauth2\/consent\?request=/);
    expect(setCookies(res).some((c) => c.startsWith('idsvc_session='))).toBe(true);
    expect(await sessions()).toEqual(['passkey', 'password']);
    const [row] = await t.dataSource.query('SELECT last_login_at FROM users WHERE id = $1', [
      user.id,
    ]);
    expect(row.last_login_at).toEqual(t.clock.now());

    const { code, state, iss } = await approveFrom(agent, res.headers.location);
    expect({ state, iss }).toEqual({ state: 'st-123', iss: ISSUER });
    const tokens = await exchangeCode(t.app, application.clientId, code, verifier);
    expect(claimsOf(tokens.id_token)).toMatchObject({
      sub: String(user.id),
      acr: '1',
      amr: ['hwk', 'user'],
    });
  });

  it('refuses a replayed ceremony with the login page again (401), and starts no session', async () => {
    const { application, authenticator } = await aliceWithPasskey();
    const first = browser(t.app);
    const signedIn = await signInWithPasskey(
      first,
      (await loginPage(first, application.clientId)).fields,
      authenticator,
    );
    expectStatus(signedIn.res, 303);

    // The same ceremony and assertion, sent from another browser's login page.
    const replayer = browser(t.app);
    const { fields } = await loginPage(replayer, application.clientId);
    const { ceremony_id, assertion } = signedIn.form;
    const replay = await replayer
      .post('/oauth2/login/passkey')
      .type('form')
      .send({ ...fields, ceremony_id, assertion });
    expect(replay.status).toBe(401);
    expect(replay.headers['content-type']).toMatch(/^text\/html/);
    expect(replay.text).toContain(FAILED);
    expect(replay.text).toContain('name="password"');
    expect(setCookies(replay).some((c) => c.startsWith('idsvc_session='))).toBe(false);
    expect(await sessions()).toEqual(['passkey', 'password']);
  });

  it.each<[string, CeremonyOverrides]>([
    ['made for another origin', { origin: 'https://evil.example' }],
    ['made for another relying party', { rpId: 'evil.example' }],
    ['without user verification', { userVerified: false }],
    ['with a forged signature', { forgeSignature: true }],
  ])('refuses an assertion %s with the same 401 page', async (_what, overrides) => {
    const { application, authenticator } = await aliceWithPasskey();
    const agent = browser(t.app);
    const { fields } = await loginPage(agent, application.clientId);
    const { res } = await signInWithPasskey(agent, fields, authenticator, overrides);
    expect(res.status).toBe(401);
    expect(res.text).toContain(FAILED);
    expect(res.text).toContain('data-passkey-options');
    expect(setCookies(res).some((c) => c.startsWith('idsvc_session='))).toBe(false);
    expect(await sessions()).toEqual(['password']);
  });

  it('refuses a missing, unknown or malformed ceremony or assertion with the same 401 page', async () => {
    const { application } = await aliceWithPasskey();
    const agent = browser(t.app);
    const { fields } = await loginPage(agent, application.clientId);
    const { ceremonyId } = await options(agent, fields);
    for (const extra of [
      {},
      { ceremony_id: ceremonyId, assertion: 'not json' },
      { ceremony_id: ceremonyId, assertion: '{"id":"x","response":{}}' },
      { ceremony_id: '00000000-0000-4000-8000-000000000000', assertion: '{}' },
    ]) {
      const res = await agent
        .post('/oauth2/login/passkey')
        .type('form')
        .send({ ...fields, ...extra });
      expect([res.status, res.text.includes(FAILED)]).toEqual([401, true]);
    }
  });

  it('signs in a user whose access is disabled as the password form does: access_denied', async () => {
    const { application, user, authenticator } = await aliceWithPasskey();
    await relate(t, application.id, user.id, { enabled: false });
    const agent = browser(t.app);
    const { fields } = await loginPage(agent, application.clientId);
    const { res } = await signInWithPasskey(agent, fields, authenticator);
    expectStatus(res, 303);
    expect(query(res.headers.location)).toMatchObject({
      error: 'access_denied',
      state: 'st-123',
      iss: ISSUER,
    });
  });

  it("refuses options across origins, without the page's CSRF token or without a live request", async () => {
    const { application } = await aliceWithPasskey();
    const agent = browser(t.app);
    const { fields } = await loginPage(agent, application.clientId);

    const foreign = await startPasskey(agent, fields).set('Origin', 'https://evil.example');
    expect(foreign.status).toBe(403);
    expect(foreign.headers['content-type']).toMatch(/^text\/html/);
    const wrongToken = await startPasskey(agent, { ...fields, csrf_token: 'x'.repeat(43) });
    expect(wrongToken.status).toBe(403);
    // The token belongs to the browser that loaded the page: another one cannot use it.
    expect((await startPasskey(browser(t.app), fields)).status).toBe(403);
    const noRequest = await startPasskey(agent, { csrf_token: fields.csrf_token });
    expect(noRequest.status).toBe(400);
    const signInStarts =
      "SELECT count(*)::int AS n FROM passkey_ceremonies WHERE purpose = 'sign_in'";
    expect(await t.dataSource.query(signInStarts)).toEqual([{ n: 0 }]);

    const own = await startPasskey(agent, fields).set('Origin', ISSUER);
    expect(own.status).toBe(200);
    expect(await t.dataSource.query(signInStarts)).toEqual([{ n: 1 }]);
  });

  it('offers no passkey where upstream_providers leaves the password form out', async () => {
    const { application, authenticator } = await aliceWithPasskey();
    await t.app.get(UpstreamProvidersService).create({
      id: 'github',
      displayName: 'GitHub',
      kind: 'github',
      clientId: 'gh-client',
      clientSecret: 'gh-secret',
      settings: {},
    });
    const agent = browser(t.app);
    const start = await agent.get(
      authorizePath(
        authorizeParams({
          clientId: application.clientId,
          challenge: pkce().challenge,
          extra: { upstream_providers: 'github' },
        }),
      ),
    );
    const page = await agent.get(start.headers.location);
    expect(page.text).toContain('Sign in with GitHub');
    expect(page.text).not.toContain('passkey');
    expect(page.text).not.toContain('<script');
    expect(page.headers['content-security-policy']).not.toContain('script-src');

    // The page has no form token; a hand-made POST with the token this browser would get for
    // the request passes the CSRF check and is refused for the offer.
    const request = decodeURIComponent(/request=([^"&]+)/.exec(page.text)![1]);
    const csrfCookie = /^idsvc_csrf=([^;]+)/.exec(
      setCookies(page).find((c) => c.startsWith('idsvc_csrf='))!,
    )![1];
    const pending = await t.app.get(PendingAuthorizationsService).find(request);
    const browserSide = { ip: '127.0.0.1', userAgent: '', csrfCookie, secure: false };
    const fields = { request, csrf_token: t.app.get(Csrf).issue(browserSide, pending!.id).token };
    const notOffered = await startPasskey(agent, fields);
    expect(notOffered.status).toBe(400);
    expect(notOffered.text).toContain('does not offer sign-in with a passkey');

    // A good assertion (of a ceremony started elsewhere) does not sign in here either.
    const started = await t.app.get(PasskeySignInService).options();
    const refused = await agent
      .post('/oauth2/login/passkey')
      .type('form')
      .send({
        ...fields,
        ceremony_id: started.ceremonyId,
        assertion: JSON.stringify(
          authenticator.getAssertion(started.options as OptionsBody['options']),
        ),
      });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('does not offer sign-in with a passkey');
    expect(await sessions()).toEqual(['password']);
  });

  it("gives only the login page's CSP script-src and connect-src 'self'", async () => {
    const { application, authenticator } = await aliceWithPasskey();
    const agent = browser(t.app);
    const { page, fields } = await loginPage(agent, application.clientId);
    expect(page.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; " +
        "img-src https: data:; form-action 'self' https://client.example; " +
        "frame-ancestors 'none'; base-uri 'none'",
    );
    const { res } = await signInWithPasskey(agent, fields, authenticator);
    const consent = await agent.get(res.headers.location);
    expectStatus(consent, 200);
    expect(consent.headers['content-security-policy']).toBe(CONSENT_CSP);

    // A refused passkey is the login page again, with its script.
    const other = browser(t.app);
    const refused = await signInWithPasskey(
      other,
      (await loginPage(other, application.clientId)).fields,
      authenticator,
      { origin: 'https://evil.example' },
    );
    expect(refused.res.status).toBe(401);
    expect(refused.res.headers['content-security-policy']).toBe(
      page.headers['content-security-policy'],
    );
  });

  it('serves the script as text/javascript, cacheable for good under its versioned URL', async () => {
    const versioned = await t.http().get(PASSKEY_SCRIPT_URL);
    expect(versioned.status).toBe(200);
    expect(versioned.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(versioned.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(versioned.headers['x-content-type-options']).toBe('nosniff');
    expect(versioned.text).toContain('navigator.credentials.get');
    expect(versioned.text).not.toMatch(/\beval\(|new Function/);

    const unversioned = await t.http().get('/oauth2/assets/passkey-sign-in.js?v=old');
    expect(unversioned.status).toBe(200);
    expect(unversioned.headers['cache-control']).toBe('no-cache');
    expect(unversioned.text).toBe(versioned.text);
  });
});
