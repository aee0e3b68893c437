import { DEFAULT_LOCALE } from '../../../../src/common/i18n/i18n';
import { CODES_PER_EMAIL } from '../../../../src/modules/interaction/one-time-codes/code-quota';
import { EmailVerificationService } from '../../../../src/modules/interaction/email-verification/email-verification.service';
import { cookieName } from '../../../../src/modules/sessions/cookies';
import { SessionService } from '../../../../src/modules/sessions/session.service';
import { createApiKey, createApplication, createUser } from '../../../factories';
import { TEST_SIGN_IN_CLIENT } from '../../../support/console';
import {
  approveFrom,
  authorizeParams,
  authorizePath,
  browser,
  exchangeCode,
  expectStatus,
  hiddenInput,
  login,
  pkce,
  PASSWORD,
  query,
  REDIRECT_URI,
  type Agent,
} from '../../../support/oauth';
import { codeOf, linkOf } from '../../../support/smtp-server';
import { useMailboxBed } from '../../../support/mailbox-bed';

// Email verification as a step of an authorization whose application requires a verified email,
// over HTTP with a real SMTP server on loopback; and EmailVerificationService itself, which the
// account page uses to verify and add addresses.

const SCOPE = 'openid read email';

describe('email verification', () => {
  const bed = useMailboxBed();

  /** An application that requires a verified email, and alice, whose email is not verified. */
  async function setup() {
    const { application } = await createApplication(bed.t.app, {
      name: 'Demo App',
      authMethod: 'none',
      redirectUris: [REDIRECT_URI],
      requireVerifiedEmail: true,
    });
    const user = await createUser(bed.t.app, {
      username: 'alice',
      email: 'Alice@example.org',
      password: PASSWORD,
      emailVerified: false,
    });
    return { application, user };
  }

  /** An account without an email (as an upstream provider that verified none makes them). */
  async function accountWithoutEmail(username: string) {
    const user = await createUser(bed.t.app, {
      username,
      email: `${username}@placeholder.example`,
      password: PASSWORD,
    });
    await bed.t.dataSource.query(`UPDATE users SET email = '' WHERE id = $1`, [user.id]);
    await bed.t.dataSource.query('DELETE FROM user_emails WHERE user_id = $1', [user.id]);
    return user;
  }

  /** Signs in on the login page; answers the location it leads to. */
  async function signIn(agent: Agent, clientId: string, username = 'alice', challenge?: string) {
    const res = await login(agent, {
      clientId,
      username,
      scope: SCOPE,
      challenge: challenge ?? pkce().challenge,
    });
    expectStatus(res, 303);
    return res.headers.location;
  }

  const post = (agent: Agent, path: string, page: string, fields: Record<string, string> = {}) =>
    agent
      .post(path)
      .type('form')
      .send({
        request: hiddenInput(page, 'request'),
        csrf_token: hiddenInput(page, 'csrf_token'),
        ...fields,
      });

  /**
   * The verification page → "Send a code" (with `email` and the current password when asked) →
   * the code page's location.
   */
  async function sendCode(agent: Agent, location: string, email?: string) {
    const page = await agent.get(location);
    expectStatus(page, 200);
    const fields: Record<string, string> = email ? { email, current_password: PASSWORD } : {};
    const sent = await post(agent, '/oauth2/verify-email', page.text, fields);
    expectStatus(sent, 303);
    return sent.headers.location;
  }

  /** Opens the emailed link and submits the code form as it is filled in. */
  async function enterEmailedCode(agent: Agent, to: string) {
    const mail = await bed.mailbox.next(to);
    const link = linkOf(mail);
    const page = await agent.get(link.pathname + link.search);
    expectStatus(page, 200);
    expect(page.text).toContain(`value="${codeOf(mail)}"`);
    return post(agent, link.pathname, page.text, {
      id: hiddenInput(page.text, 'id'),
      code: codeOf(mail),
    });
  }

  it('sends the browser to verify, then the authorization continues and the email shows verified', async () => {
    const { application, user } = await setup();
    const { plaintext } = await createApiKey(bed.t.app, application.id, ['user:read']);
    const agent = browser(bed.t.app);
    const { verifier, challenge } = pkce();
    const next = await signIn(agent, application.clientId, 'alice', challenge);
    expect(next).toMatch(/^\/oauth2\/verify-email\?request=/);

    const page = await agent.get(next);
    expectStatus(page, 200);
    expect(page.text).toContain('<strong>Demo App</strong> needs a verified email address');
    expect(page.text).toContain('<strong>alice@example.org</strong>');
    expect(page.text).not.toContain('name="email"');
    expect(page.text).toContain('Send a code');

    const codePage = await sendCode(agent, next);
    expect(codePage).toMatch(/^\/oauth2\/verify-email\/code\?request=[^&]+&id=[0-9a-f-]{36}$/);
    const mail = bed.mailbox.received.at(-1)!;
    expect(mail.subject).toBe(
      `${codeOf(mail)} is your code to verify your email at 127.0.0.1:3000`,
    );
    expect(mail.text).toContain('to continue to Demo App');
    expect(linkOf(mail).pathname).toBe('/oauth2/verify-email/code');

    const verified = await enterEmailedCode(agent, 'alice@example.org');
    expectStatus(verified, 303);
    expect(verified.headers.location).toMatch(/^\/oauth2\/consent\?request=/);
    const back = await approveFrom(agent, verified.headers.location);
    const tokens = await exchangeCode(bed.t.app, application.clientId, back.code, verifier);

    const me = await bed.t
      .http()
      .get('/api/oauth2/userinfo')
      .set('Authorization', `Bearer ${tokens.access_token}`);
    expect(me.body).toMatchObject({ email: 'alice@example.org', email_verified: true });
    const emails = await bed.t
      .http()
      .get('/api/oauth2/user/emails')
      .set('Authorization', `Bearer ${tokens.access_token}`);
    expect(emails.body).toEqual([
      { email: 'alice@example.org', verified: true, primary: true, visibility: 'public' },
    ]);
    const listed = await bed.t
      .http()
      .get(`/api/v1/app/users/${user.id}`)
      .set('Authorization', `Bearer ${plaintext}`);
    expect(listed.body).toMatchObject({ email: 'alice@example.org', emailVerified: true });
  });

  it('keeps answering interaction_required to prompt=none', async () => {
    const { application } = await setup();
    const agent = browser(bed.t.app);
    // Signed in (the session is set before the verification page).
    expect(await signIn(agent, application.clientId)).toMatch(/^\/oauth2\/verify-email/);
    const silent = await agent.get(
      authorizePath(
        authorizeParams({
          clientId: application.clientId,
          challenge: pkce().challenge,
          scope: SCOPE,
          extra: { prompt: 'none' },
        }),
      ),
    );
    expectStatus(silent, 302);
    expect(silent.headers.location).toMatch(/^https:\/\/client\.example\/cb\?/);
    expect(query(silent.headers.location)).toMatchObject({
      error: 'interaction_required',
      error_description: 'The application requires a verified email address',
    });
  });

  it('asks an account without an email for one, and makes the verified address its email', async () => {
    const { application } = await setup();
    const dee = await accountWithoutEmail('dee');
    const agent = browser(bed.t.app);
    const next = await signIn(agent, application.clientId, 'dee');
    const page = await agent.get(next);
    expect(page.text).toContain('name="email"');
    expect(page.text).toContain('autocomplete="email"');

    const invalid = await post(agent, '/oauth2/verify-email', page.text, {
      email: 'not-an-address',
      current_password: PASSWORD,
    });
    expectStatus(invalid, 400);
    expect(invalid.text).toContain('Enter a valid email address.');
    expect(invalid.text).toContain('value="not-an-address"');

    await sendCode(agent, next, ' Dee@Example.org ');
    const verified = await enterEmailedCode(agent, 'dee@example.org');
    expectStatus(verified, 303);
    expect(verified.headers.location).toMatch(/^\/oauth2\/consent\?request=/);
    const [row] = await bed.t.dataSource.query<{ email: string; email_verified: boolean }[]>(
      'SELECT email, email_verified FROM users WHERE id = $1',
      [dee.id],
    );
    expect(row).toEqual({ email: 'dee@example.org', email_verified: true });
  });

  it("sends the code for another account's address like any other, and answers 409 when it is entered", async () => {
    const { application } = await setup();
    await bed.t.dataSource.query('UPDATE users SET email_verified = true');
    await bed.t.dataSource.query('UPDATE user_emails SET verified = true');
    const dee = await accountWithoutEmail('dee');
    const agent = browser(bed.t.app);
    const next = await signIn(agent, application.clientId, 'dee');
    const codePage = await sendCode(agent, next, 'alice@example.org');
    expect(codePage).toMatch(/^\/oauth2\/verify-email\/code\?request=[^&]+&id=[0-9a-f-]{36}$/);

    const refused = await enterEmailedCode(agent, 'alice@example.org');
    expectStatus(refused, 409);
    expect(refused.text).toContain('This email address belongs to another account');
    const rows = await bed.t.dataSource.query<{ email: string; email_verified: boolean }[]>(
      'SELECT email, email_verified FROM users WHERE id = $1',
      [dee.id],
    );
    expect(rows).toEqual([{ email: '', email_verified: false }]);
    expect(
      await bed.t.dataSource.query('SELECT 1 FROM user_emails WHERE user_id = $1', [dee.id]),
    ).toHaveLength(0);
  });

  describe("adding an address: the account page's step-up (StepUp.forAddress)", () => {
    const PAST_THE_WINDOW_MS = 5 * 60_000 + 1000;

    /** A browser with an upstream sign-in's session of `userId`, at the authorization's step. */
    async function upstreamSession(clientId: string, userId: string) {
      const { cookieValue } = await bed.t.app
        .get(SessionService)
        .create(userId, 'upstream', TEST_SIGN_IN_CLIENT);
      const agent = browser(bed.t.app);
      agent.jar.setCookie(`${cookieName('session', false)}=${cookieValue}`, '127.0.0.1', '/');
      const start = await agent.get(
        authorizePath(authorizeParams({ clientId, scope: SCOPE, challenge: pkce().challenge })),
      );
      expectStatus(start, 302);
      expect(start.headers.location).toMatch(/^\/oauth2\/verify-email\?request=/);
      return { agent, next: start.headers.location };
    }

    it('sends a code to the address an account without a password types only within 5 minutes of its sign-in; past them it asks to sign in again, keeping the request', async () => {
      const { application } = await setup();
      const eve = await accountWithoutEmail('eve');
      await bed.t.dataSource.query('UPDATE users SET password_hash = NULL WHERE id = $1', [eve.id]);
      const { agent, next } = await upstreamSession(application.clientId, eve.id);
      const fresh = await agent.get(next);
      expectStatus(fresh, 200);
      expect(fresh.text).toContain('name="email"');
      expect(fresh.text).not.toContain('name="current_password"');

      bed.t.clock.advance(PAST_THE_WINDOW_MS);
      try {
        const request = hiddenInput(fresh.text, 'request');
        const signInAgain = `/oauth2/login?request=${request}`;
        const stale = await agent.get(next);
        expectStatus(stale, 200);
        expect(stale.text).not.toContain('name="email"');
        expect(stale.text).toContain('needs a sign-in within the last 5 minutes');
        expect(stale.text).toContain(`<a href="${signInAgain}">Sign in again</a>`);
        const inChinese = await agent.get(next).set('Accept-Language', 'zh-CN');
        expect(inChinese.text).toContain(`<a href="${signInAgain}">重新登录</a>`);
        // The login page of the same request: a new sign-in comes back to this step.
        const login = await agent.get(signInAgain);
        expectStatus(login, 200);
        expect(hiddenInput(login.text, 'request')).toBe(request);

        const refused = await post(agent, '/oauth2/verify-email', fresh.text, {
          email: 'eve.new@example.org',
        });
        expectStatus(refused, 403);
        expect(refused.text).toContain('Sign in again, then add the address within 5 minutes.');
        expect(refused.text).toContain(`<a href="${signInAgain}">Sign in again</a>`);
        expect(await bed.t.dataSource.query('SELECT id FROM one_time_codes')).toEqual([]);
        expect(bed.mailbox.received).toEqual([]);
      } finally {
        bed.t.clock.advance(-PAST_THE_WINDOW_MS);
      }

      await sendCode(agent, next, 'eve.new@example.org');
      expectStatus(await enterEmailedCode(agent, 'eve.new@example.org'), 303);
      const [row] = await bed.t.dataSource.query('SELECT email FROM users WHERE id = $1', [eve.id]);
      expect(row).toEqual({ email: 'eve.new@example.org' });
    });

    it('needs the current password of an account with one before a code goes to the address it types, and counts a wrong one', async () => {
      const { application } = await setup();
      await accountWithoutEmail('dee');
      const agent = browser(bed.t.app);
      const next = await signIn(agent, application.clientId, 'dee');
      const page = await agent.get(next);
      expect(page.text).toContain('name="current_password"');
      for (const fields of [{}, { current_password: 'not the password' }] as Record<
        string,
        string
      >[]) {
        const refused = await post(agent, '/oauth2/verify-email', page.text, {
          email: 'dee.new@example.org',
          ...fields,
        });
        expectStatus(refused, 401);
        expect(refused.text).toContain('The current password is incorrect.');
        expect(refused.text).toContain('value="dee.new@example.org"');
      }
      expect(await bed.t.dataSource.query('SELECT id FROM one_time_codes')).toEqual([]);
      expect(bed.mailbox.received).toEqual([]);
      // Counted like failed sign-ins of dee from this address: three more make it 429.
      for (let attempt = 0; attempt < 3; attempt++) {
        await post(agent, '/oauth2/verify-email', page.text, {
          email: 'dee.new@example.org',
          current_password: 'wrong again',
        });
      }
      const throttled = await post(agent, '/oauth2/verify-email', page.text, {
        email: 'dee.new@example.org',
        current_password: PASSWORD,
      });
      expectStatus(throttled, 429);
      expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('never attaches an address to the account that asked from a browser that does not hold its session, and says in the email who asked', async () => {
      const { application } = await setup();
      await accountWithoutEmail('dee');
      const attacker = browser(bed.t.app);
      const next = await signIn(attacker, application.clientId, 'dee');
      await sendCode(attacker, next, 'victim@example.org');
      const mail = await bed.mailbox.next('victim@example.org');
      expect(mail.text).toContain('Someone asked to add this address to an account at');
      expect(mail.text).toContain('If it was not you, ignore this email');
      const link = linkOf(mail);

      // The victim opens the link in a browser without a session: the sign-in page, nothing else.
      const stranger = await browser(bed.t.app).get(link.pathname + link.search);
      expectStatus(stranger, 302);
      expect(stranger.headers.location).toMatch(/^\/oauth2\/login\?request=/);
      // Signed in to the victim's own account (alice), the code of dee's is refused.
      const victim = browser(bed.t.app);
      await signIn(victim, application.clientId, 'alice');
      const page = await victim.get(link.pathname + link.search);
      expectStatus(page, 200);
      const refused = await post(victim, link.pathname, page.text, {
        id: hiddenInput(page.text, 'id'),
        code: codeOf(mail),
      });
      expectStatus(refused, 400);
      const held = await bed.t.dataSource.query(
        `SELECT user_id FROM user_emails WHERE lower(email) = 'victim@example.org'
         UNION ALL SELECT id FROM users WHERE lower(email) = 'victim@example.org'`,
      );
      expect(held).toEqual([]);
    });
  });

  it('refuses a wrong code (400, with a way to ask again), a foreign form (403), and sends strangers to sign in', async () => {
    const { application } = await setup();
    const agent = browser(bed.t.app);
    const next = await signIn(agent, application.clientId);
    const codePage = await sendCode(agent, next);
    const code = codeOf(await bed.mailbox.next('alice@example.org'));
    const page = await agent.get(codePage);
    const id = hiddenInput(page.text, 'id');
    const wrong = await post(agent, '/oauth2/verify-email/code', page.text, {
      id,
      code: code === '000000' ? '000001' : '000000',
    });
    expectStatus(wrong, 400);
    expect(wrong.text).toContain('The code is wrong or has expired.');
    expect(wrong.text).toMatch(
      /<a href="\/oauth2\/verify-email\?request=[^"]+">Send a new code<\/a>/,
    );

    const stranger = browser(bed.t.app);
    const forged = await post(stranger, '/oauth2/verify-email/code', page.text, { id, code });
    expectStatus(forged, 403);
    const notSignedIn = await stranger.get(next);
    expectStatus(notSignedIn, 302);
    expect(notSignedIn.headers.location).toMatch(/^\/oauth2\/login\?request=/);

    const [row] = await bed.t.dataSource.query<{ email_verified: boolean }[]>(
      `SELECT email_verified FROM users WHERE username = 'alice'`,
    );
    expect(row.email_verified).toBe(false);
  });

  it(`sends at most ${CODES_PER_EMAIL} codes an hour to the address, then 429 with Retry-After`, async () => {
    const { application } = await setup();
    const agent = browser(bed.t.app);
    const next = await signIn(agent, application.clientId);
    for (let i = 0; i < CODES_PER_EMAIL; i++) await sendCode(agent, next);
    const page = await agent.get(next);
    const refused = await post(agent, '/oauth2/verify-email', page.text);
    expectStatus(refused, 429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.text).toContain('Too many codes were asked for');
  });

  describe('EmailVerificationService (the account page uses it too)', () => {
    const links: string[] = [];
    const request = (userId: string, email: string, makePrimary?: boolean) => ({
      userId,
      email,
      clientAddress: '192.0.2.7',
      site: 'id.example.test',
      locale: DEFAULT_LOCALE,
      link: (id: string, code: string) => {
        const link = `https://id.example.test/account?id=${id}&code=${code}`;
        links.push(link);
        return link;
      },
      makePrimary,
    });

    async function sendAndRead(userId: string, email: string, makePrimary?: boolean) {
      const service = bed.t.app.get(EmailVerificationService);
      const sent = await service.send(request(userId, email, makePrimary));
      if (sent.kind !== 'sent') throw new Error(`not sent: ${sent.kind}`);
      const mail = await bed.mailbox.next(sent.email);
      expect(linkOf(mail).toString()).toBe(links.at(-1));
      return { id: sent.id, code: codeOf(mail) };
    }

    const entries = (userId: string) =>
      bed.t.dataSource.query(
        'SELECT email, verified, "primary" FROM user_emails WHERE user_id = $1 ORDER BY email',
        [userId],
      );

    it('verifies an added address without changing the primary one, or makes it primary when asked', async () => {
      const service = bed.t.app.get(EmailVerificationService);
      const user = await createUser(bed.t.app, {
        username: 'erin',
        email: 'erin@example.org',
        emailVerified: true,
      });
      const second = await sendAndRead(user.id, 'Erin.Work@Example.org');
      expect(await service.confirm(user.id, second.id, second.code)).toEqual({
        kind: 'verified',
        email: 'erin.work@example.org',
        primary: false,
      });
      expect(await entries(user.id)).toEqual([
        { email: 'erin.work@example.org', verified: true, primary: false },
        { email: 'erin@example.org', verified: true, primary: true },
      ]);

      const third = await sendAndRead(user.id, 'erin@new.example', true);
      expect(await service.confirm(user.id, third.id, third.code)).toMatchObject({
        kind: 'verified',
        primary: true,
      });
      expect(await entries(user.id)).toEqual([
        { email: 'erin.work@example.org', verified: true, primary: false },
        { email: 'erin@example.org', verified: true, primary: false },
        { email: 'erin@new.example', verified: true, primary: true },
      ]);
      const [row] = await bed.t.dataSource.query<{ email: string }[]>(
        'SELECT email FROM users WHERE id = $1',
        [user.id],
      );
      expect(row.email).toBe('erin@new.example');
    });

    it("refuses another account's code, a spent code and an invalid address", async () => {
      const service = bed.t.app.get(EmailVerificationService);
      const erin = await createUser(bed.t.app, { username: 'erin', email: 'erin@example.org' });
      const finn = await createUser(bed.t.app, { username: 'finn', email: 'finn@example.org' });
      const code = await sendAndRead(erin.id, 'erin@example.org');
      expect(await service.confirm(finn.id, code.id, code.code)).toEqual({ kind: 'refused' });
      expect(await service.send(request(erin.id, 'no address'))).toEqual({
        kind: 'invalid_email',
      });
      const again = await sendAndRead(erin.id, 'erin@example.org');
      expect((await service.confirm(erin.id, again.id, again.code)).kind).toBe('verified');
      expect(await service.confirm(erin.id, again.id, again.code)).toEqual({ kind: 'refused' });
    });
  });
});
