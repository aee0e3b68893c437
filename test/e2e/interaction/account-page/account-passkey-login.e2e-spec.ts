import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { createUser } from '../../../factories';
import { consoleSession } from '../../../support/console';
import { browser, expectStatus, hiddenInput, PASSWORD, type Agent } from '../../../support/oauth';
import { newAuthenticator, registerPasskey } from '../../../support/passkeys';
import type { SoftwareAuthenticator } from '../../../support/software-authenticator';
import { createTestApp, TestApp } from '../../../support/test-app';

interface OptionsBody {
  ceremonyId: string;
  options: PublicKeyCredentialRequestOptionsJSON;
}

/**
 * "Sign in with a passkey" on the account page's own sign-in (docs/accounts.md, "The account
 * page"): the OAuth login page's passkey form and ceremony, pointed at /account/login/passkey.
 */
describe('Account page: passkey sign-in', () => {
  let t: TestApp;
  let authenticator: SoftwareAuthenticator;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    const alice = await createUser(t.app, {
      username: 'alice',
      email: 'alice@example.org',
      password: PASSWORD,
    });
    authenticator = newAuthenticator();
    await registerPasskey(await consoleSession(t, alice.id), authenticator);
    // What registering left (the console session, its sign-in, the ceremony) is not under test.
    await t.dataSource.query('DELETE FROM oauth_sessions');
    await t.dataSource.query('DELETE FROM sign_ins');
    await t.dataSource.query('DELETE FROM passkey_ceremonies');
  });

  /** The sign-in page in `agent`, and its CSRF token. */
  async function signInPage(agent: Agent): Promise<string> {
    const page = await agent.get('/account/login');
    expectStatus(page, 200);
    expect(page.text).toContain('action="/account/login/passkey"');
    expect(page.text).toContain('data-passkey-options="/account/login/passkey/options"');
    expect(page.text).toContain('autocomplete="username webauthn"');
    return hiddenInput(page.text, 'csrf_token');
  }

  async function options(agent: Agent, csrfToken: string): Promise<OptionsBody> {
    const res = await agent
      .post('/account/login/passkey/options')
      .type('form')
      .send({ csrf_token: csrfToken });
    expectStatus(res, 200);
    expect(res.headers['cache-control']).toBe('no-store');
    return res.body as OptionsBody;
  }

  it('signs in with a passkey: a passkey session, then the account page', async () => {
    const agent = browser(t.app);
    const csrfToken = await signInPage(agent);
    const started = await options(agent, csrfToken);
    const assertion = authenticator.getAssertion(started.options);
    const res = await agent
      .post('/account/login/passkey')
      .type('form')
      .send({
        csrf_token: csrfToken,
        ceremony_id: started.ceremonyId,
        assertion: JSON.stringify(assertion),
      });
    expectStatus(res, 303);
    expect(res.headers.location).toBe('/account');
    const page = await agent.get('/account');
    expectStatus(page, 200);
    expect(page.text).toContain('<span class="who">alice</span>');
    const methods = await t.dataSource.query<{ auth_method: string; method: string }[]>(
      `SELECT s.auth_method, i.method FROM oauth_sessions s, sign_ins i`,
    );
    expect(methods).toEqual([{ auth_method: 'passkey', method: 'passkey' }]);
  });

  it('refuses a replayed ceremony and a forged assertion with one 401 message and no session', async () => {
    const agent = browser(t.app);
    const csrfToken = await signInPage(agent);
    const started = await options(agent, csrfToken);
    const assertion = JSON.stringify(authenticator.getAssertion(started.options));
    const form = { csrf_token: csrfToken, ceremony_id: started.ceremonyId, assertion };
    expectStatus(await agent.post('/account/login/passkey').type('form').send(form), 303);
    await agent.post('/account/logout').type('form').send({});
    const sessionsBefore = await t.dataSource.query('SELECT id FROM oauth_sessions');

    const replayed = await browser(t.app).post('/account/login/passkey').type('form').send(form);
    // Another browser has no CSRF cookie: the form is refused before the ceremony is looked at.
    expectStatus(replayed, 403);

    const fresh = browser(t.app);
    const token = await signInPage(fresh);
    const again = await fresh
      .post('/account/login/passkey')
      .type('form')
      .send({ ...form, csrf_token: token });
    expectStatus(again, 401);
    expect(again.text).toContain('That passkey could not be used to sign in.');
    const forged = await fresh
      .post('/account/login/passkey')
      .type('form')
      .send({ csrf_token: token, ceremony_id: started.ceremonyId, assertion: '{"id":"x"}' });
    expectStatus(forged, 401);
    expect(await t.dataSource.query('SELECT id FROM oauth_sessions')).toEqual(sessionsBefore);
  });

  it('refuses to start a ceremony cross-origin or without the page token, storing nothing', async () => {
    const agent = browser(t.app);
    const csrfToken = await signInPage(agent);
    const foreign = await agent
      .post('/account/login/passkey/options')
      .set('Origin', 'https://attacker.example')
      .type('form')
      .send({ csrf_token: csrfToken });
    expectStatus(foreign, 403);
    const noToken = await agent.post('/account/login/passkey/options').type('form').send({});
    expectStatus(noToken, 403);
    expect(await t.dataSource.query('SELECT id FROM passkey_ceremonies')).toEqual([]);
  });
});
