import { CODES_PER_EMAIL } from '../../../../src/modules/interaction/one-time-codes/code-quota';
import { createUser } from '../../../factories';
import { accountBrowser, formToken, postAccountForm } from '../../../support/account';
import { browser, expectStatus, hiddenInput, PASSWORD, type Agent } from '../../../support/oauth';
import { SessionService } from '../../../../src/modules/sessions/session.service';
import { TEST_SIGN_IN_CLIENT } from '../../../support/console';
import { cookieName } from '../../../../src/modules/sessions/cookies';
import { codeOf, linkOf } from '../../../support/smtp-server';
import { useMailboxBed } from '../../../support/mailbox-bed';

/** The email addresses of the account page: listed, verified and added with emailed codes. */
describe('Account page: email addresses', () => {
  let userId: string;
  const bed = useMailboxBed();
  beforeEach(async () => {
    userId = (
      await createUser(bed.t.app, {
        username: 'alice',
        email: 'alice@example.org',
        password: PASSWORD,
        emailVerified: true,
      })
    ).id;
  });

  const entries = (): Promise<
    { user_id: string; email: string; verified: boolean; primary: boolean }[]
  > =>
    bed.t.dataSource.query(
      'SELECT user_id, email, verified, "primary" FROM user_emails ORDER BY id',
    );

  /**
   * "Send a verification code" for `email` (with the current password, which a new address
   * needs); expects the form to enter it, answers its id.
   */
  async function sendCode(agent: Agent, email: string): Promise<string> {
    const res = await postAccountForm(agent, '/account/emails/code', {
      email,
      current_password: PASSWORD,
    });
    expectStatus(res, 303);
    const location = new URL(res.headers.location, 'http://placeholder');
    expect(location.pathname).toBe('/account/emails/confirm');
    return location.searchParams.get('id')!;
  }

  /** Opens the code form of `id` and posts `code` with its token. */
  async function enterCode(agent: Agent, id: string, code: string) {
    const page = await agent.get(`/account/emails/confirm?id=${id}`);
    expectStatus(page, 200);
    return agent
      .post('/account/emails/confirm')
      .type('form')
      .send({ csrf_token: hiddenInput(page.text, 'csrf_token'), id, code });
  }

  it('lists the addresses with their verification state, the account email first', async () => {
    await bed.t.dataSource.query(
      `INSERT INTO user_emails (user_id, email, verified, "primary") VALUES
         ($1, 'old@example.org', false, false), ($1, 'work@example.org', true, false)`,
      [userId],
    );
    const page = await (await accountBrowser(bed.t.app)).get('/account');
    const rows = [
      ...page.text.matchAll(/<td>([^<]+@[^<]+)<\/td>\s*<td>\s*<span class="badge ?(\w*)">/g),
    ];
    expect(rows.map((row) => [row[1], row[2]])).toEqual([
      ['alice@example.org', 'ok'],
      ['old@example.org', 'warn'],
      ['work@example.org', 'ok'],
    ]);
    expect(page.text.match(/>Primary</g)).toHaveLength(1);
    // Only the unverified address offers a code.
    expect(page.text.match(/name="email" value="old@example.org"/g)).toHaveLength(1);
    expect(page.text).not.toContain('name="email" value="work@example.org"');
  });

  it('verifies an unverified address with the code of the emailed link', async () => {
    await bed.t.dataSource.query(
      `INSERT INTO user_emails (user_id, email, verified, "primary") VALUES ($1, 'old@example.org', false, false)`,
      [userId],
    );
    const agent = await accountBrowser(bed.t.app);
    const id = await sendCode(agent, 'Old@Example.org');
    const mail = await bed.mailbox.next('old@example.org');
    expect(mail.subject).toContain('is your code to verify your email');
    const link = linkOf(mail);
    expect(link.pathname).toBe('/account/emails/confirm');
    expect(link.searchParams.get('id')).toBe(id);
    // The link fills the form in; only posting it spends the code.
    const page = await agent.get(`${link.pathname}${link.search}`);
    expect(page.text).toContain(`value="${codeOf(mail)}"`);
    const res = await agent
      .post('/account/emails/confirm')
      .type('form')
      .send({ csrf_token: hiddenInput(page.text, 'csrf_token'), id, code: codeOf(mail) });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/account?done=email_verified');
    expect((await agent.get(res.headers.location)).text).toContain(
      'The email address was verified.',
    );
    expect(await entries()).toEqual([
      { user_id: userId, email: 'alice@example.org', verified: true, primary: true },
      { user_id: userId, email: 'old@example.org', verified: true, primary: false },
    ]);
    // Spent: the same code again is refused.
    expect((await enterCode(agent, id, codeOf(mail))).status).toBe(400);
  });

  it('adds a new address once its code is entered, and not before', async () => {
    const agent = await accountBrowser(bed.t.app);
    const id = await sendCode(agent, 'new@example.org');
    expect(await entries()).toHaveLength(1);
    const code = codeOf(await bed.mailbox.next('new@example.org'));
    expect((await enterCode(agent, id, code)).status).toBe(303);
    expect(await entries()).toEqual([
      { user_id: userId, email: 'alice@example.org', verified: true, primary: true },
      { user_id: userId, email: 'new@example.org', verified: true, primary: false },
    ]);
  });

  it('counts wrong codes: the fifth spends the code, and the right one is refused after', async () => {
    const agent = await accountBrowser(bed.t.app);
    const id = await sendCode(agent, 'new@example.org');
    const code = codeOf(await bed.mailbox.next('new@example.org'));
    const wrong = code === '000000' ? '111111' : '000000';
    for (let attempt = 1; attempt <= 5; attempt++) {
      const res = await enterCode(agent, id, wrong);
      expect(res.status).toBe(400);
      expect(res.text).toContain('This code is wrong or no longer valid.');
    }
    expect((await enterCode(agent, id, code)).status).toBe(400);
    expect(await entries()).toHaveLength(1);
  });

  it('sends a code to an address another account holds, and says so only to who enters it', async () => {
    await createUser(bed.t.app, { username: 'bob', email: 'bob@example.org' });
    const agent = await accountBrowser(bed.t.app);
    const id = await sendCode(agent, 'bob@example.org');
    const code = codeOf(await bed.mailbox.next('bob@example.org'));
    const res = await enterCode(agent, id, code);
    expect(res.status).toBe(409);
    expect(res.text).toContain('This address belongs to another account.');
    expect((await entries()).filter((row) => row.user_id === userId)).toHaveLength(1);
  });

  it('never attaches an address to the account that asked from a browser that does not hold its session, and says in the email who asked', async () => {
    await createUser(bed.t.app, {
      username: 'bob',
      email: 'bob@example.org',
      password: PASSWORD,
      emailVerified: true,
    });
    const alice = await accountBrowser(bed.t.app);
    const id = await sendCode(alice, 'victim@example.org');
    const mail = await bed.mailbox.next('victim@example.org');
    expect(mail.text).toContain('Someone asked to add this address to an account at');
    expect(mail.text).toContain('If it was not you, ignore this email');
    const link = linkOf(mail);
    expect(link.pathname).toBe('/account/emails/confirm');

    // Opened in a browser without a session: the sign-in page, nothing else.
    const stranger = await browser(bed.t.app).get(link.pathname + link.search);
    expect(stranger.status).toBe(302);
    expect(stranger.headers.location).toBe('/account/login');
    // Opened where bob is signed in: alice's code is refused, and counted as a wrong try.
    const refused = await enterCode(await accountBrowser(bed.t.app, 'bob'), id, codeOf(mail));
    expect(refused.status).toBe(400);
    expect((await entries()).map((row) => row.email)).toEqual([
      'alice@example.org',
      'bob@example.org',
    ]);
    // A wrong try, not a spent code: one try counted, and the code still works for its account.
    const [tried] = await bed.t.dataSource.query<{ attempts: number; consumed: boolean }[]>(
      'SELECT attempts, consumed_at IS NOT NULL AS consumed FROM one_time_codes WHERE id = $1',
      [id],
    );
    expect(tried).toEqual({ attempts: 1, consumed: false });
    expect((await enterCode(alice, id, codeOf(mail))).status).toBe(303);
  });

  it('makes the verified address the email of an account that had none', async () => {
    await bed.t.dataSource.query(
      `UPDATE users SET email = '', email_verified = false WHERE id = $1`,
      [userId],
    );
    await bed.t.dataSource.query('DELETE FROM user_emails');
    const agent = await accountBrowser(bed.t.app, 'alice');
    const id = await sendCode(agent, 'Alice.New@example.org');
    expect(
      (await enterCode(agent, id, codeOf(await bed.mailbox.next('alice.new@example.org')))).status,
    ).toBe(303);
    const [user] = await bed.t.dataSource.query(
      'SELECT email, email_verified FROM users WHERE id = $1',
      [userId],
    );
    expect(user).toEqual({ email: 'alice.new@example.org', email_verified: true });
    expect(await entries()).toEqual([
      { user_id: userId, email: 'alice.new@example.org', verified: true, primary: true },
    ]);
  });

  it.each([
    ['not an address', 'not-an-address', 'Enter a valid email address.'],
    ['a verified address', 'alice@example.org', 'This address is verified already.'],
  ])('refuses %s with 400 on the page, sending nothing', async (_, email, message) => {
    const agent = await accountBrowser(bed.t.app);
    const before = bed.mailbox.received.length;
    const res = await postAccountForm(agent, '/account/emails/code', { email });
    expect(res.status).toBe(400);
    expect(res.text).toContain(message);
    expect(res.text).toContain(`value="${email}"`);
    expect(await bed.t.dataSource.query('SELECT id FROM one_time_codes')).toEqual([]);
    expect(bed.mailbox.received).toHaveLength(before);
  });

  it('needs the current password to add a new address (a new way into the account), and counts a wrong one', async () => {
    const agent = await accountBrowser(bed.t.app);
    const page = await agent.get('/account');
    expect(page.text).toContain('id="new-email-password"');
    for (const [current, status] of [
      [undefined, 401],
      ['not the password', 401],
    ] as const) {
      const res = await postAccountForm(agent, '/account/emails/code', {
        email: 'intruder@example.org',
        ...(current === undefined ? {} : { current_password: current }),
      });
      expect(res.status).toBe(status);
      expect(res.text).toContain('The current password is incorrect.');
    }
    expect(await bed.t.dataSource.query('SELECT id FROM one_time_codes')).toEqual([]);
    // Counted like failed sign-ins of alice from this address: three more make it 429.
    for (let attempt = 0; attempt < 3; attempt++) {
      await postAccountForm(agent, '/account/emails/code', {
        email: 'intruder@example.org',
        current_password: 'wrong again',
      });
    }
    const throttled = await postAccountForm(agent, '/account/emails/code', {
      email: 'intruder@example.org',
      current_password: PASSWORD,
    });
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('adds an address to an account without a password only within 5 minutes of signing in', async () => {
    await bed.t.dataSource.query('UPDATE users SET password_hash = NULL WHERE id = $1', [userId]);
    const { cookieValue } = await bed.t.app
      .get(SessionService)
      .create(userId, 'upstream', TEST_SIGN_IN_CLIENT);
    const agent = browser(bed.t.app);
    agent.jar.setCookie(`${cookieName('session', false)}=${cookieValue}`, '127.0.0.1', '/');
    const page = await agent.get('/account');
    expect(page.text).toContain('Adding an address needs a sign-in within the last 5 minutes.');
    const token = formToken(page.text, '/account/emails/code');
    const post = () =>
      agent
        .post('/account/emails/code')
        .type('form')
        .send({ csrf_token: token, email: 'second@example.org' });
    bed.t.clock.advance(5 * 60_000 + 1000);
    const late = await post();
    expect(late.status).toBe(403);
    expect(late.text).toContain('Sign in again, then add the address within 5 minutes.');
    bed.t.clock.advance(-(5 * 60_000 + 1000));
    expectStatus(await post(), 303);
    expect(codeOf(await bed.mailbox.next('second@example.org'))).toMatch(/^\d{6}$/);
  });

  it('answers 429 with Retry-After past the codes an address may get in an hour', async () => {
    const agent = await accountBrowser(bed.t.app);
    for (let sent = 1; sent <= CODES_PER_EMAIL; sent++) {
      await sendCode(agent, 'many@example.org');
      await bed.mailbox.next('many@example.org');
    }
    const res = await postAccountForm(agent, '/account/emails/code', {
      email: 'many@example.org',
      current_password: PASSWORD,
    });
    expect(res.status).toBe(429);
    expect(res.text).toContain('Too many codes were sent.');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('refuses an eleventh address', async () => {
    await bed.t.dataSource.query(
      `INSERT INTO user_emails (user_id, email, verified, "primary")
       SELECT $1, 'extra' || n || '@example.org', true, false FROM generate_series(1, 9) n`,
      [userId],
    );
    const agent = await accountBrowser(bed.t.app);
    const res = await postAccountForm(agent, '/account/emails/code', {
      email: 'one.more@example.org',
      current_password: PASSWORD,
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain('at most 10 addresses');
  });

  it('refuses the code form with a token of another form (403), and without a session', async () => {
    const agent = await accountBrowser(bed.t.app);
    const id = await sendCode(agent, 'new@example.org');
    const code = codeOf(await bed.mailbox.next('new@example.org'));
    const page = await agent.get('/account');
    const forged = await agent
      .post('/account/emails/confirm')
      .type('form')
      .send({ csrf_token: formToken(page.text, '/account/emails/code'), id, code });
    expect(forged.status).toBe(403);
    const anonymous = await bed.t.http().get(`/account/emails/confirm?id=${id}&code=${code}`);
    expect(anonymous.headers.location).toBe('/account/login');
    expect((await enterCode(agent, id, code)).status).toBe(303);
  });
});
