import { createUser } from '../../../factories';
import { accountBrowser, formToken, submitAccountLogin } from '../../../support/account';
import { browser, expectStatus, hiddenInput, PASSWORD } from '../../../support/oauth';
import { createTestApp, TestApp } from '../../../support/test-app';

/** Signing in to and out of the account page (docs/accounts.md, "The account page"). */
describe('Account page: sign-in, sign-out and the page rules', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    await createUser(t.app, { username: 'alice', email: 'alice@example.org', password: PASSWORD });
  });

  /** The headers every page of the OAuth flow carries, and whether scripts are allowed. */
  function expectPageHeaders(res: { headers: Record<string, string> }, script: boolean): void {
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    const csp = res.headers['content-security-policy'];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).not.toContain('unsafe-inline');
    if (script) expect(csp).toContain("script-src 'self'; connect-src 'self'");
    else expect(csp).not.toContain('script-src');
  }

  const sessions = async (): Promise<number> =>
    Number((await t.dataSource.query('SELECT count(*) AS n FROM oauth_sessions'))[0].n);

  it('sends a browser without a session to the sign-in page, whose only script is the passkey form', async () => {
    const res = await t.http().get('/account');
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/account/login');
    expectPageHeaders(res, false);
    const page = await t.http().get('/account/login');
    expect(page.status).toBe(200);
    expectPageHeaders(page, true);
    expect(page.text).toContain('name="username"');
    expect(page.text.match(/<script [^>]*>/g)).toEqual([
      expect.stringMatching(
        /^<script src="\/oauth2\/assets\/passkey-sign-in\.js\?v=[0-9a-f]{16}" defer>$/,
      ),
    ]);
    expect(page.text).toContain('<a href="/oauth2/forgot-password">Forgot password?</a>');
  });

  it('signs in with the username or the email, on the session the OAuth pages and the console share', async () => {
    for (const login of ['alice', 'ALICE@example.org']) {
      const agent = browser(t.app);
      const res = await submitAccountLogin(agent, login, PASSWORD);
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/account');
      expectPageHeaders(res, false);
      const page = await agent.get('/account');
      expect(page.status).toBe(200);
      expectPageHeaders(page, true);
      expect(page.text).toContain('<span class="who">alice</span>');
      expect(page.text).toContain('<script type="module" src="/account/assets/account.js">');
      // Signed in: the sign-in page sends the browser on; the console knows the session.
      expect((await agent.get('/account/login')).headers.location).toBe('/account');
      const console = await agent.get('/api/console/session');
      expect(console.status).toBe(200);
      expect(console.body.authMethod).toBe('password');
    }
    const [row] = await t.dataSource.query('SELECT auth_method FROM oauth_sessions LIMIT 1');
    expect(row.auth_method).toBe('password');
  });

  it('answers a wrong password like the OAuth login page and counts it: the sixth is 429', async () => {
    const agent = browser(t.app);
    for (let attempt = 1; attempt <= 5; attempt++) {
      const res = await submitAccountLogin(agent, 'alice', 'not the password');
      expect(res.status).toBe(401);
      expect(res.text).toContain('The username or password is incorrect.');
      expect(res.text).toContain('value="alice"');
    }
    const throttled = await submitAccountLogin(agent, 'alice', PASSWORD);
    expect(throttled.status).toBe(429);
    expect(throttled.text).toContain('Too many failed sign-in attempts');
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    expect(await sessions()).toBe(0);
  });

  it('refuses a sign-in form without the token of this browser (403), signing nobody in', async () => {
    const agent = browser(t.app);
    const page = await agent.get('/account/login');
    const token = hiddenInput(page.text, 'csrf_token');
    const forged = await agent
      .post('/account/login')
      .type('form')
      .send({ csrf_token: 'x'.repeat(43), username: 'alice', password: PASSWORD });
    expect(forged.status).toBe(403);
    expect(forged.text).toContain('Form expired');
    // The token of another browser (its own cookie) does not fit this one.
    const other = await browser(t.app)
      .post('/account/login')
      .type('form')
      .send({ csrf_token: token, username: 'alice', password: PASSWORD });
    expect(other.status).toBe(403);
    expect(await sessions()).toBe(0);
  });

  it('signs out with its form: the session row is gone and the cookie cleared', async () => {
    const agent = await accountBrowser(t.app);
    const page = await agent.get('/account');
    const bad = await agent.post('/account/logout').type('form').send({ csrf_token: 'nope' });
    expect(bad.status).toBe(403);
    expect(await sessions()).toBe(1);
    // Another form's token is not the sign-out's.
    const wrongForm = await agent
      .post('/account/logout')
      .type('form')
      .send({ csrf_token: formToken(page.text, '/account/profile') });
    expect(wrongForm.status).toBe(403);
    const res = await agent
      .post('/account/logout')
      .type('form')
      .send({ csrf_token: formToken(page.text, '/account/logout') });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/account/login');
    expect(res.headers['set-cookie']).toEqual(
      expect.arrayContaining([expect.stringMatching(/^idsvc_session=;/)]),
    );
    expect(await sessions()).toBe(0);
    expect((await agent.get('/account')).headers.location).toBe('/account/login');
  });

  it('sends a form posted without a session to the sign-in page and changes nothing', async () => {
    const res = await browser(t.app)
      .post('/account/profile')
      .type('form')
      .send({ csrf_token: 'x', nickname: 'Mallory' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/account/login');
    const [user] = await t.dataSource.query("SELECT nickname FROM users WHERE username = 'alice'");
    expect(user.nickname).toBe('');
  });

  it('shows only its fixed notices: the query string puts no text on the page', async () => {
    const agent = await accountBrowser(t.app);
    const injected = await agent.get('/account?done=%3Cb%3Ehello%3C%2Fb%3E');
    expect(injected.status).toBe(200);
    expect(injected.text).not.toContain('hello');
    expect(injected.text).not.toContain('class="alert ok"');
    for (const name of ['toString', '__proto__', 'constructor']) {
      expect((await agent.get(`/account?done=${name}`)).text).not.toContain('class="alert ok"');
    }
    expect((await agent.get('/account?done=profile')).text).toContain('Your profile was saved.');
  });

  it('answers bodies it does not read with an HTML page (415), never JSON', async () => {
    const agent = await accountBrowser(t.app);
    const res = await agent.post('/account/profile').send({ nickname: 'json' });
    expectStatus(res, 415);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['x-frame-options']).toBe('DENY');
  });
});
