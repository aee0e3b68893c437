import { MAX_DEVICE_CODE_FAILURES } from '../../../../src/modules/interaction/device/device-code-throttle';
import {
  decide,
  deviceSetup,
  enterCode,
  personAnswers,
  signInToConfirm,
  startDevice,
} from '../../../support/device';
import {
  authorizeInteractively,
  browser,
  expectStatus,
  hiddenInput,
  pkce,
  type Agent,
} from '../../../support/oauth';
import { createTestApp, type TestApp } from '../../../support/test-app';

const MINUTE = 60_000;

/** A code of the alphabet that no device was given (the suite's codes are random). */
const WRONG = 'ZZZZ-ZZZZ';

/** The one message a page shows for a code that cannot be used. */
const messageOf = (html: string): string => {
  const match = /<p class="error" role="alert">([^<]*)<\/p>/.exec(html);
  if (!match) throw new Error('no error message in page');
  return match[1];
};

// The device page (RFC 8628 section 3.3; docs/oauth.md, "Device authorization grant";
// docs/security.md, "Device authorization grant"). Addresses come from X-Forwarded-For.
describe('device page', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY_HOPS: '1' } });
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  const status = async () =>
    (await t.dataSource.query<{ status: string }[]>('SELECT status FROM oauth_device_codes'))[0]
      .status;

  /** A browser at `address`. */
  const at = (address: string): Agent => browser(t.app).set('X-Forwarded-For', address);

  it('limits wrong user codes per address and per browser: the 11th within 10 minutes is refused, even when it is right', async () => {
    const { application } = await deviceSetup(t.app);
    const started = await startDevice(t.app, application.clientId, 'read');

    // Per address: every try from a new browser (a fresh cookie each time).
    for (let i = 0; i < MAX_DEVICE_CODE_FAILURES; i += 1) {
      expect((await enterCode(at('203.0.113.1'), WRONG)).status).toBe(400);
    }
    const fromAddress = await enterCode(at('203.0.113.1'), started.user_code);
    expect(fromAddress.status).toBe(429);
    expect(Number(fromAddress.headers['retry-after'])).toBeGreaterThan(0);
    expect(fromAddress.text).toContain('Too many codes were tried');
    expect(await status()).toBe('pending');

    // Per browser: one browser, every try from another address.
    const agent = browser(t.app);
    const fromBrowser = async (address: number, code: string) => {
      const page = await agent.get('/device').set('X-Forwarded-For', `198.51.100.${address}`);
      return agent
        .post('/device')
        .set('X-Forwarded-For', `198.51.100.${address}`)
        .type('form')
        .send({ csrf_token: hiddenInput(page.text, 'csrf_token'), user_code: code });
    };
    for (let i = 0; i < MAX_DEVICE_CODE_FAILURES; i += 1) {
      expect((await fromBrowser(i + 1, WRONG)).status).toBe(400);
    }
    const refused = await fromBrowser(200, started.user_code);
    expect(refused.status).toBe(429);
    expect(await status()).toBe('pending');

    // Another browser at another address is not concerned, and a usable code counts nothing.
    for (let i = 0; i < MAX_DEVICE_CODE_FAILURES + 2; i += 1) {
      expect((await enterCode(at('192.0.2.9'), started.user_code)).status).toBe(303);
    }
    // Once the 10 minutes have passed, the address and the browser may try again.
    t.clock.advance(10 * MINUTE);
    const fresh = await startDevice(t.app, application.clientId, 'read');
    expect((await enterCode(at('203.0.113.1'), fresh.user_code)).status).toBe(303);
    expect((await fromBrowser(201, fresh.user_code)).status).toBe(303);
  });

  it('answers a wrong, an expired and a used code with the same message', async () => {
    const { application } = await deviceSetup(t.app);
    const wrong = await enterCode(browser(t.app), WRONG);
    expect(wrong.status).toBe(400);
    const malformed = await enterCode(browser(t.app), 'hello');
    expect(malformed.status).toBe(400);

    const used = await startDevice(t.app, application.clientId, 'read');
    await personAnswers(browser(t.app), used.user_code);
    const usedAgain = await enterCode(browser(t.app), used.user_code);
    expect(usedAgain.status).toBe(400);

    const late = await startDevice(t.app, application.clientId, 'read');
    t.clock.advance(10 * MINUTE);
    const expired = await enterCode(browser(t.app), late.user_code);
    expect(expired.status).toBe(400);

    const message = messageOf(wrong.text);
    expect(message).toContain('This code cannot be used');
    for (const page of [malformed, usedAgain, expired]) expect(messageOf(page.text)).toBe(message);
  });

  it('compares the user code case-, dash- and space-insensitively', async () => {
    const { application } = await deviceSetup(t.app);
    const started = await startDevice(t.app, application.clientId, 'read');
    const typed = ` ${started.user_code.toLowerCase().replace('-', ' ')} `;
    const agent = browser(t.app);
    const confirm = await signInToConfirm(agent, await enterCode(agent, typed));
    expect(confirm.text).toContain(started.user_code);
  });

  it('always asks before approving, even after an earlier consent, and a link with the code only fills the form', async () => {
    const { application, clientSecret } = await deviceSetup(t.app, { authMethod: 'secret' });
    const agent = browser(t.app);
    // The person authorizes the application once through /authorize (consent recorded).
    const { challenge } = pkce();
    const first = await authorizeInteractively(agent, {
      clientId: application.clientId,
      scope: 'read',
      challenge,
    });
    expect(first.code).toBeDefined();
    // An earlier device approval too.
    const earlier = await startDevice(t.app, application.clientId, 'read', clientSecret!);
    await personAnswers(agent, earlier.user_code);

    const started = await startDevice(t.app, application.clientId, 'read', clientSecret!);
    // verification_uri_complete: a GET fills the form and approves nothing.
    const link = new URL(started.verification_uri_complete);
    const filled = await agent.get(`${link.pathname}${link.search}`);
    expectStatus(filled, 200);
    expect(filled.text).toContain(`name="user_code"`);
    expect(filled.text).toContain(`value="${started.user_code}"`);
    expect(
      await t.dataSource.query("SELECT id FROM oauth_device_codes WHERE status = 'pending'"),
    ).toHaveLength(1);

    // Submitted by the signed-in person: the confirmation page, however often they consented.
    const entered = await agent
      .post('/device')
      .type('form')
      .send({ csrf_token: hiddenInput(filled.text, 'csrf_token'), user_code: started.user_code });
    const confirm = await signInToConfirm(agent, entered);
    expect(confirm.text).toContain('Living Room TV');
    expect(confirm.text).toContain('<code>read</code>');
    expect(confirm.text).toContain(`<code>${started.user_code}</code>`);
    expect(confirm.text).toContain('Go on only if you started this yourself');
    expect(confirm.text).toContain('value="approve"');
    expect(confirm.text).toContain('value="deny"');
    expect(
      await t.dataSource.query("SELECT id FROM oauth_device_codes WHERE status = 'pending'"),
    ).toHaveLength(1);
    const answered = await decide(agent, confirm, 'approve');
    expectStatus(answered, 200);
    expect(answered.text).toContain('You may return to your device');
  });

  it("refuses an approval without the page's CSRF token and leaves the code pending", async () => {
    const { application } = await deviceSetup(t.app);
    const started = await startDevice(t.app, application.clientId, 'read');
    const agent = browser(t.app);
    const confirm = await signInToConfirm(agent, await enterCode(agent, started.user_code));
    const request = hiddenInput(confirm.text, 'request');

    const missing = await agent
      .post('/device/confirm')
      .type('form')
      .send({ request, decision: 'approve' });
    expect(missing.status).toBe(403);
    const forged = await agent
      .post('/device/confirm')
      .type('form')
      .send({ request, decision: 'approve', csrf_token: 'forged' });
    expect(forged.status).toBe(403);
    // Another browser's token for this request is not this browser's either.
    const attacker = browser(t.app);
    const attackerConfirm = await signInToConfirm(
      attacker,
      await enterCode(attacker, started.user_code),
    );
    const crossed = await agent
      .post('/device/confirm')
      .type('form')
      .send({
        request,
        decision: 'approve',
        csrf_token: hiddenInput(attackerConfirm.text, 'csrf_token'),
      });
    expect(crossed.status).toBe(403);
    expect(await status()).toBe('pending');
    // The device's request is not a consent page's: /oauth2/consent sends it back to its
    // confirmation page, issues no code and spends nothing.
    const throughConsent = await agent
      .post('/oauth2/consent')
      .type('form')
      .send({ request, decision: 'approve', csrf_token: hiddenInput(confirm.text, 'csrf_token') });
    expect(throughConsent.status).toBe(303);
    expect(throughConsent.headers.location).toBe(
      `/device/confirm?request=${encodeURIComponent(request)}`,
    );
    expect(await t.dataSource.query('SELECT id FROM oauth_codes')).toEqual([]);
    // The code entry form needs its token as well.
    const entry = await browser(t.app)
      .post('/device')
      .type('form')
      .send({ user_code: started.user_code });
    expect(entry.status).toBe(403);
    expect(await status()).toBe('pending');
    // The page's own form, with its token, still answers it.
    await decide(agent, confirm, 'approve');
    expect(await status()).toBe('approved');
  });

  it('lets no other site frame the device page', async () => {
    const { application } = await deviceSetup(t.app);
    const started = await startDevice(t.app, application.clientId, 'read');
    const agent = browser(t.app);
    const entry = await agent.get('/device');
    const confirm = await signInToConfirm(agent, await enterCode(agent, started.user_code));
    const done = await decide(agent, confirm, 'deny');
    for (const page of [entry, confirm, done]) {
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(page.headers['content-security-policy']).toContain("default-src 'none'");
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      expect(page.headers['cache-control']).toBe('no-store');
    }
    expect(done.text).toContain('You refused access');
  });

  it('applies the rules of /authorize at approval: a required verified email is offered, a disabled access refused', async () => {
    const { application, user } = await deviceSetup(t.app);
    await t.dataSource.query(
      'UPDATE applications SET require_verified_email = true WHERE id = $1',
      [application.id],
    );
    await t.dataSource.query('UPDATE users SET email_verified = false WHERE id = $1', [user.id]);
    const started = await startDevice(t.app, application.clientId, 'read');
    const agent = browser(t.app);
    const entered = await enterCode(agent, started.user_code);
    const login = await agent.get(entered.headers.location);
    const signedIn = await agent
      .post('/oauth2/login')
      .type('form')
      .send({
        request: hiddenInput(login.text, 'request'),
        csrf_token: hiddenInput(login.text, 'csrf_token'),
        username: 'alice',
        password: 'correct horse battery staple',
      });
    expectStatus(signedIn, 303);
    expect(signedIn.headers.location).toMatch(/^\/oauth2\/verify-email\?request=/);

    // A person whose access to the application is disabled: the refusal page, nothing approved.
    await t.dataSource.query(
      'UPDATE applications SET require_verified_email = false WHERE id = $1',
      [application.id],
    );
    await t.dataSource.query(
      `INSERT INTO app_users (application_id, user_id, "group", enabled, created_at)
       VALUES ($1, $2, 't0', false, now())`,
      [application.id, user.id],
    );
    const confirmUrl = signedIn.headers.location.replace('/oauth2/verify-email', '/device/confirm');
    const refused = await agent.get(confirmUrl);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Access refused');
    expect(await status()).toBe('pending');
  });

  it("carries a user_code of a code's length back through the language link, and a longer value nowhere", async () => {
    const agent = browser(t.app);
    const filled = await agent.get('/device?user_code=BCDF-GHJK');
    expectStatus(filled, 200);
    expect(filled.text).toContain('/oauth2/language?');
    expect(filled.text).toContain(encodeURIComponent('/device?user_code=BCDF-GHJK'));
    const long = 'B'.repeat(5000);
    const stuffed = await agent.get(`/device?user_code=${long}`);
    expectStatus(stuffed, 200);
    // No switcher to echo it into, and the form takes no more than a code could be.
    expect(stuffed.text).not.toContain('/oauth2/language?');
    expect(stuffed.text).not.toContain('B'.repeat(65));
  });

  it('speaks Chinese to a browser that asks for it', async () => {
    const { application } = await deviceSetup(t.app);
    const started = await startDevice(t.app, application.clientId, 'read');
    const agent = browser(t.app).set('Accept-Language', 'zh-CN');
    const entry = await agent.get('/device');
    expect(entry.text).toContain('输入设备上显示的代码');
    const confirm = await signInToConfirm(agent, await enterCode(agent, started.user_code));
    expect(confirm.text).toContain('只有当你本人在面前的设备上发起了此操作时才继续');
    const done = await decide(agent, confirm, 'approve');
    expect(done.text).toContain('你可以回到设备上了');
  });

  it('goes straight to the confirmation for a person already signed in', async () => {
    const { application, clientSecret } = await deviceSetup(t.app, { authMethod: 'secret' });
    const agent = browser(t.app);
    const { challenge } = pkce();
    await authorizeInteractively(agent, { clientId: application.clientId, challenge });
    const started = await startDevice(t.app, application.clientId, 'read', clientSecret!);
    const entered = await enterCode(agent, started.user_code);
    expectStatus(entered, 303);
    expect(entered.headers.location).toMatch(/^\/device\/confirm\?request=/);
  });
});
