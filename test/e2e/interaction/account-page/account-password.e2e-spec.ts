import { createApplication, createUser } from '../../../factories';
import {
  accountBrowser,
  formToken,
  postAccountForm,
  submitAccountLogin,
} from '../../../support/account';
import { cookieName } from '../../../../src/modules/sessions/cookies';
import { SessionService } from '../../../../src/modules/sessions/session.service';
import { Csrf } from '../../../../src/modules/sessions/csrf';
import { TEST_SIGN_IN_CLIENT } from '../../../support/console';
import { browser, PASSWORD, REDIRECT_URI } from '../../../support/oauth';
import { obtainTokens, refreshAs, userinfoStatus } from '../../../support/oauth-tokens';
import { createTestApp, TestApp } from '../../../support/test-app';

const NEW_PASSWORD = 'a brand new passphrase';
const TEST_BROWSER = { ip: '127.0.0.1', userAgent: '', secure: false };

/** The password section of the account page (docs/accounts.md, "Password"). */
describe('Account page: password', () => {
  let t: TestApp;
  let userId: string;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    userId = (
      await createUser(t.app, { username: 'alice', email: 'alice@example.org', password: PASSWORD })
    ).id;
  });

  const change = (agent: Parameters<typeof postAccountForm>[0], fields: Record<string, string>) =>
    postAccountForm(agent, '/account/password', {
      current_password: PASSWORD,
      new_password: NEW_PASSWORD,
      repeat_password: NEW_PASSWORD,
      ...fields,
    });

  const sessionCount = async (): Promise<number> =>
    Number((await t.dataSource.query('SELECT count(*) AS n FROM oauth_sessions'))[0].n);

  it('changes it: the new one signs in, the other sessions end, this one stays, audited', async () => {
    const elsewhere = await accountBrowser(t.app);
    const agent = await accountBrowser(t.app);
    expect(await sessionCount()).toBe(2);
    const res = await change(agent, {});
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/account?done=password');
    expect((await agent.get(res.headers.location)).text).toContain('Your password was changed.');
    expect((await elsewhere.get('/account')).headers.location).toBe('/account/login');
    expect(await sessionCount()).toBe(1);
    const audit = await t.dataSource.query(
      'SELECT application_id, actor_user_id, action, target, details FROM audit_log',
    );
    expect(audit).toEqual([
      {
        application_id: null,
        actor_user_id: userId,
        action: 'user.password_change',
        target: `user:${userId}`,
        details: { via: 'account_page', firstPassword: false, sessionsEnded: 1 },
      },
    ]);
    expect((await submitAccountLogin(browser(t.app), 'alice', PASSWORD)).status).toBe(401);
    expect((await submitAccountLogin(browser(t.app), 'alice', NEW_PASSWORD)).status).toBe(303);
  });

  it("keeps the applications' tokens: a change by the signed-in owner is not a reset", async () => {
    const { application, clientSecret } = await createApplication(t.app, {
      authMethod: 'secret',
      redirectUris: [REDIRECT_URI],
    });
    const client = { clientId: application.clientId, clientSecret };
    const tokens = await obtainTokens(t.app, client);
    const agent = await accountBrowser(t.app);
    expect((await change(agent, {})).status).toBe(303);
    expect(await userinfoStatus(t.app, tokens.access_token)).toBe(200);
    expect((await refreshAs(t.app, client, tokens.refresh_token)).status).toBe(200);
    const revoked = await t.dataSource.query(
      "SELECT 1 FROM events WHERE event_type = 'token_revoked'",
    );
    expect(revoked).toEqual([]);
  });

  it('refuses a wrong current password with 401 and counts it as a failed sign-in', async () => {
    const agent = await accountBrowser(t.app);
    for (let attempt = 1; attempt <= 5; attempt++) {
      const res = await change(agent, { current_password: 'not it' });
      expect(res.status).toBe(401);
      expect(res.text).toContain('The current password is incorrect.');
    }
    // The failures are the sign-in's: the sixth try, and a sign-in, are throttled.
    const throttled = await change(agent, {});
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    expect((await submitAccountLogin(browser(t.app), 'alice', PASSWORD)).status).toBe(429);
    const [row] = await t.dataSource.query('SELECT count(*) AS n FROM audit_log');
    expect(Number(row.n)).toBe(0);
    expect((await submitAccountLogin(browser(t.app), 'alice', NEW_PASSWORD)).status).toBe(429);
  });

  it.each([
    ['differing new passwords', { repeat_password: 'something else entirely' }, 'differ'],
    ['a short new password', { new_password: 'short', repeat_password: 'short' }, 'at least 8'],
    [
      'an easily guessed password',
      { new_password: 'password123', repeat_password: 'password123' },
      'too easy to guess',
    ],
    [
      'a password made of the username',
      { new_password: 'alicealice2026', repeat_password: 'alicealice2026' },
      'too easy to guess',
    ],
  ])('refuses %s with 400 before checking the current password', async (_, fields, message) => {
    const agent = await accountBrowser(t.app);
    const res = await change(agent, { current_password: 'wrong, but not checked', ...fields });
    expect(res.status).toBe(400);
    expect(res.text).toContain(message);
    expect((await submitAccountLogin(browser(t.app), 'alice', PASSWORD)).status).toBe(303);
  });

  it('refuses the form with a token of another form or session (403)', async () => {
    const agent = await accountBrowser(t.app);
    const page = await agent.get('/account');
    const res = await agent
      .post('/account/password')
      .type('form')
      .send({
        csrf_token: formToken(page.text, '/account/profile'),
        current_password: PASSWORD,
        new_password: NEW_PASSWORD,
        repeat_password: NEW_PASSWORD,
      });
    expect(res.status).toBe(403);
    expect((await submitAccountLogin(browser(t.app), 'alice', PASSWORD)).status).toBe(303);
  });

  describe('an account without a password', () => {
    /** A browser with a session of `method` that started now. */
    async function signedIn(method: 'upstream' | 'passkey') {
      await t.dataSource.query('UPDATE users SET password_hash = NULL WHERE id = $1', [userId]);
      const { cookieValue } = await t.app
        .get(SessionService)
        .create(userId, method, TEST_SIGN_IN_CLIENT);
      const agent = browser(t.app);
      agent.jar.setCookie(`${cookieName('session', false)}=${cookieValue}`, '127.0.0.1', '/');
      return { agent, session: cookieValue };
    }

    /** The password form posted with `token` (the form is not on the page when refused). */
    const postWith = (agent: ReturnType<typeof browser>, token: string) =>
      agent.post('/account/password').type('form').send({
        csrf_token: token,
        new_password: NEW_PASSWORD,
        repeat_password: NEW_PASSWORD,
      });

    it('sets one within 5 minutes of an upstream sign-in, not later', async () => {
      const { agent } = await signedIn('upstream');
      const page = await agent.get('/account');
      expect(page.text).toContain('Set password');
      expect(page.text).not.toContain('name="current_password"');
      const token = formToken(page.text, '/account/password');
      t.clock.advance(5 * 60_000 + 1000);
      const late = await postWith(agent, token);
      expect(late.status).toBe(403);
      expect(late.text).toContain('Sign in again');
      expect(late.text).toContain('This account has no password');
      t.clock.advance(-(5 * 60_000 + 1000));
      const res = await postWith(agent, token);
      expect(res.status).toBe(303);
      const [audit] = await t.dataSource.query('SELECT details FROM audit_log');
      expect(audit.details).toMatchObject({ firstPassword: true });
      expect((await submitAccountLogin(browser(t.app), 'alice', NEW_PASSWORD)).status).toBe(303);
    });

    it('does not set one after a passkey sign-in', async () => {
      const { agent, session } = await signedIn('passkey');
      const page = await agent.get('/account');
      expect(page.text).toContain('This account has no password');
      expect(page.text).not.toContain('action="/account/password"');
      // The token the form would carry, made for this browser and session.
      const csrfCookie = (page.headers['set-cookie'] as unknown as string[])
        .find((line) => line.startsWith('idsvc_csrf='))
        ?.split(';')[0]
        .slice('idsvc_csrf='.length);
      const { token } = t.app
        .get(Csrf)
        .issue({ ...TEST_BROWSER, csrfCookie, sessionCookie: session }, 'account:password');
      expect((await postWith(agent, token)).status).toBe(403);
      const [user] = await t.dataSource.query('SELECT password_hash FROM users');
      expect(user.password_hash).toBeNull();
    });
  });
});
