import { CODES_PER_EMAIL } from '../../../../src/modules/interaction/one-time-codes/code-quota';
import { DEFAULT_LOCALE, translator } from '../../../../src/common/i18n/i18n';
import {
  CODE_TTL_SECONDS,
  MAX_CODE_ATTEMPTS,
} from '../../../../src/modules/interaction/one-time-codes/one-time-codes.service';
import { PENDING_TTL_SECONDS } from '../../../../src/modules/oauth/authorize/pending-authorizations.service';
import { UpstreamProvidersService } from '../../../../src/modules/upstreams/providers/upstream-providers.service';
import { createApiKey, createApplication, createUser } from '../../../factories';
import { bearer } from '../../../factories/app-users';
import { consoleSession, sessionCookieFrom } from '../../../support/console';
import {
  approveFrom,
  authorizeParams,
  authorizePath,
  browser,
  exchangeCode,
  expectStatus,
  hiddenInput,
  login,
  oauthSetup,
  PASSWORD,
  pkce,
  query,
  REDIRECT_URI,
  type Agent,
} from '../../../support/oauth';
import {
  callAs,
  obtainTokens,
  refreshAs,
  userinfoStatus,
  type TestClient,
} from '../../../support/oauth-tokens';
import { codeOf, linkOf, type ReceivedMail } from '../../../support/smtp-server';
import { expectMailIn, expectPageIn } from '../../../support/languages';
import { useMailboxBed } from '../../../support/mailbox-bed';

const { t } = translator(DEFAULT_LOCALE);
/** The reset page's line, the same whether or not an account uses the address. */
const CODE_SENT_NOTICE = t('passwordReset.codeSent', { minutes: CODE_TTL_SECONDS / 60 });
/** The one answer to a wrong, expired or spent code. */
const CODE_REFUSED = t('code.wrong');

// Password reset by an emailed code, over HTTP against a real SMTP server on loopback and the real
// database: the answer that never tells whether an address has an account, the code's rules, what
// a reset ends, and the authorization that continues afterwards.

const NEW_PASSWORD = 'a brand new passphrase for alice';
const RESET_LOCATION = /^\/oauth2\/reset-password\?id=[0-9a-f-]{36}(&request=v1\.[\w-]+)?$/;
const SESSION_COOKIE = 'idsvc_session';

describe('password reset', () => {
  const bed = useMailboxBed();

  /** Opens the forgot-password page (with `request` when given) and submits `email`. */
  async function askForCode(agent: Agent, email: string, request?: string) {
    const path = request
      ? `/oauth2/forgot-password?request=${encodeURIComponent(request)}`
      : '/oauth2/forgot-password';
    const page = await agent.get(path);
    expectStatus(page, 200);
    const form: Record<string, string> = {
      csrf_token: hiddenInput(page.text, 'csrf_token'),
      email,
    };
    if (request) form.request = request;
    return agent.post('/oauth2/forgot-password').type('form').send(form);
  }

  /** Opens the reset page at `path` (a Location or an emailed link) and submits it. */
  async function submitReset(
    agent: Agent,
    path: string,
    fields: { code?: string; password?: string; repeat?: string } = {},
  ) {
    const page = await agent.get(path);
    expectStatus(page, 200);
    const form: Record<string, string> = {
      id: hiddenInput(page.text, 'id'),
      csrf_token: hiddenInput(page.text, 'csrf_token'),
      code: fields.code ?? prefilledCode(page.text),
      password: fields.password ?? NEW_PASSWORD,
      password_repeat: fields.repeat ?? fields.password ?? NEW_PASSWORD,
    };
    if (page.text.includes('name="request"')) form.request = hiddenInput(page.text, 'request');
    return agent.post('/oauth2/reset-password').type('form').send(form);
  }

  const pathOf = (url: URL): string => `${url.pathname}${url.search}`;
  /** The `name=value` of each cookie an answer sets. */
  const cookieValues = (res: { headers: Record<string, unknown> }): string[] =>
    ((res.headers['set-cookie'] as string[] | undefined) ?? []).map((c) => c.split(';')[0]);
  /** The names of the cookies an answer sets. */
  const cookieNames = (res: { headers: Record<string, unknown> }): string[] =>
    ((res.headers['set-cookie'] as string[] | undefined) ?? []).map((c) => c.split('=')[0]);
  const prefilledCode = (html: string): string => /name="code"[^>]*value="(\d*)"/.exec(html)![1];
  /** A page's text with what differs per request (tokens, ids, the sealed request) blanked out. */
  const shape = (html: string): string =>
    html.replace(/value="[^"]*"/g, 'value=""').replace(/(id|request)(=|%3D)[\w.-]+/g, '$1$2');

  async function resetRows() {
    return bed.t.dataSource.query<
      { application_id: number | null; actor_user_id: string; ip: string; details: object }[]
    >(
      `SELECT application_id, actor_user_id, ip, details FROM audit_log
        WHERE action = 'user.password_reset' ORDER BY id`,
    );
  }

  it('emails a code, sets the new password, ends every session, audits, continues the authorization', async () => {
    const { application, user } = await oauthSetup(bed.t.app);
    const { verifier, challenge } = pkce();
    // Two earlier sessions: one from the OAuth login page, one from the console.
    const before = browser(bed.t.app);
    expectStatus(await login(before, { clientId: application.clientId, challenge }), 303);
    const consoleClient = await consoleSession(bed.t, user.id);
    expectStatus(await consoleClient.request('get', '/api/console/session'), 200);

    // The login page → "Forgot your password?" → the address.
    const agent = browser(bed.t.app);
    const start = await agent.get(
      authorizePath(authorizeParams({ clientId: application.clientId, challenge })),
    );
    const loginPage = await agent.get(start.headers.location);
    const forgotLink = /href="(\/oauth2\/forgot-password\?request=[^"]+)"/.exec(loginPage.text);
    expect(forgotLink).not.toBeNull();
    const request = hiddenInput(loginPage.text, 'request');
    expect(forgotLink![1]).toBe(`/oauth2/forgot-password?request=${request}`);
    const asked = await askForCode(agent, 'alice@example.org', request);
    expect(asked.status).toBe(303);
    expect(asked.headers.location).toMatch(RESET_LOCATION);
    const page = await agent.get(asked.headers.location);
    expect(page.text).toContain(CODE_SENT_NOTICE);

    const mail = await bed.mailbox.next('alice@example.org');
    expect(mail.subject).toMatch(
      /^\d{6} is your code to reset your password at 127\.0\.0\.1:3000$/,
    );
    const link = linkOf(mail);
    expect(link.origin).toBe('http://127.0.0.1:3000');
    expect(link.pathname).toBe('/oauth2/reset-password');
    expect(link.searchParams.get('code')).toBe(codeOf(mail));
    const askedFor = new URL(asked.headers.location, link.origin).searchParams;
    expect(link.searchParams.get('id')).toBe(askedFor.get('id'));
    expect(link.searchParams.get('request')).toBe(request);

    // Opening the link spends nothing (a mail scanner opens it first); submitting it resets.
    expectStatus(await browser(bed.t.app).get(pathOf(link)), 200);
    const reset = await submitReset(agent, pathOf(link));
    expect(reset.status).toBe(303);
    expect(reset.headers.location).toMatch(/^\/oauth2\/consent\?request=/);
    expect(sessionCookieFrom(reset)).toEqual(expect.any(String));
    const approved = await approveFrom(agent, reset.headers.location);
    await exchangeCode(bed.t.app, application.clientId, approved.code, verifier);

    // Both earlier sessions are over.
    expect((await consoleClient.request('get', '/api/console/session')).status).toBe(401);
    const stale = await before.get(
      authorizePath(authorizeParams({ clientId: application.clientId, challenge })),
    );
    expect(stale.headers.location).toMatch(/^\/oauth2\/login\?/);
    const [sessions] = await bed.t.dataSource.query<{ n: number }[]>(
      'SELECT count(*)::int AS n FROM oauth_sessions WHERE user_id = $1',
      [user.id],
    );
    expect(sessions.n).toBe(1); // the new one, of this browser

    // The old password fails, the new one signs in.
    expect(
      (await login(browser(bed.t.app), { clientId: application.clientId, challenge })).status,
    ).toBe(401);
    const withNew = await login(browser(bed.t.app), {
      clientId: application.clientId,
      challenge,
      password: NEW_PASSWORD,
    });
    expect(withNew.status).toBe(303);

    expect(await resetRows()).toEqual([
      {
        application_id: null,
        actor_user_id: user.id,
        ip: expect.stringMatching(/127\.0\.0\.1$/),
        details: { sessionsEnded: 2, tokensRevoked: 0, firstPassword: false, emailVerified: false },
      },
    ]);
    const notice = await bed.mailbox.next('alice@example.org');
    expect(notice.subject).toBe('Your password at 127.0.0.1:3000 was changed');
    expect(notice.text).toContain('with a code sent to alice@example.org');
    expect(notice.text).toContain('http://127.0.0.1:3000/oauth2/forgot-password');
  });

  it('mails the code and the notice, and refuses a weak password, in the language of the page (the switcher cookie)', async () => {
    await oauthSetup(bed.t.app);
    const agent = browser(bed.t.app);
    expectStatus(
      await agent.get('/oauth2/language?locale=zh-CN&return=/oauth2/forgot-password'),
      303,
    );
    expectStatus(await askForCode(agent, 'alice@example.org'), 303);
    const mail = await bed.mailbox.next('alice@example.org');
    expectMailIn(
      mail,
      'zh-CN',
      `${codeOf(mail)} 是你在 127.0.0.1:3000 重置密码的验证码`,
      '为你在 127.0.0.1:3000 的账号设置新密码',
      '15 分钟内有效',
      '不要把验证码告诉任何人',
    );
    // A weak password is refused with zxcvbn's reason in Chinese too.
    const weak = await submitReset(agent, pathOf(linkOf(mail)), { password: 'password1' });
    expectStatus(weak, 400);
    expectPageIn(weak.text, 'zh-CN', '这个密码太容易被猜到（这是一个常用密码）。');
    expectStatus(await submitReset(agent, pathOf(linkOf(mail))), 303);
    const notice = await bed.mailbox.next('alice@example.org');
    expectMailIn(
      notice,
      'zh-CN',
      '你在 127.0.0.1:3000 的密码已更改',
      '的密码已于 ',
      '使用的是发送到 alice@example.org 的验证码',
      '如果是你本人，无需任何操作。',
    );
    expect(notice.html).toContain('>重置我的密码</a>');
    // The date as Chinese writes it, in UTC.
    expect(notice.text).toMatch(/\d{4}年\d{1,2}月\d{1,2}日 UTC \d{2}:\d{2}/);
  });

  it('answers an unknown address exactly as a known one, and sends it nothing', async () => {
    await oauthSetup(bed.t.app, { username: 'erin' });
    const unknownAgent = browser(bed.t.app);
    const unknown = await askForCode(unknownAgent, 'nobody@example.org');
    const knownAgent = browser(bed.t.app);
    const known = await askForCode(knownAgent, 'erin@example.org');

    expect(unknown.status).toBe(303);
    expect(known.status).toBe(303);
    expect(unknown.headers.location).toMatch(RESET_LOCATION);
    expect(known.headers.location).toMatch(RESET_LOCATION);
    expect(cookieNames(unknown)).toEqual(cookieNames(known));
    const unknownPage = await unknownAgent.get(unknown.headers.location);
    const knownPage = await knownAgent.get(known.headers.location);
    expect(unknownPage.status).toBe(knownPage.status);
    expect(shape(unknownPage.text)).toBe(shape(knownPage.text));
    expect(unknownPage.text).toContain(CODE_SENT_NOTICE);

    // The decoy id takes no code at all.
    const decoy = await submitReset(unknownAgent, unknown.headers.location, { code: '123456' });
    expect(decoy.status).toBe(400);
    expect(decoy.text).toContain(CODE_REFUSED);

    // The known address's email arrived; the unknown one, asked for first, got none.
    await bed.mailbox.next('erin@example.org');
    expect(bed.mailbox.received.filter((m) => m.to.includes('nobody@example.org'))).toEqual([]);
  });

  it('finds the account by any case of its address and by a verified secondary one, not an unverified one', async () => {
    const user = await createUser(bed.t.app, {
      username: 'bob',
      email: 'bob@example.org',
      password: PASSWORD,
      emailVerified: false,
    });
    await bed.t.dataSource.query(
      `INSERT INTO user_emails (user_id, email, verified, "primary") VALUES
         ($1, 'Bob.Work@Example.NET', true, false), ($1, 'bob.old@example.net', false, false)`,
      [user.id],
    );

    const byCase = await askForCode(browser(bed.t.app), 'BOB@Example.ORG');
    expect(byCase.headers.location).toMatch(RESET_LOCATION);
    expect((await bed.mailbox.next('bob@example.org')).subject).toMatch(/reset your password/);

    expectStatus(await askForCode(browser(bed.t.app), 'bob.old@example.net'), 303);
    const agent = browser(bed.t.app);
    expectStatus(await askForCode(agent, 'bob.work@example.net'), 303);
    const mail = await bed.mailbox.next('bob.work@example.net');
    expect(bed.mailbox.received.filter((m) => m.to.includes('bob.old@example.net'))).toEqual([]);

    const reset = await submitReset(agent, pathOf(linkOf(mail)));
    expect(reset.status).toBe(303);
    expect(reset.headers.location).toBe('/account');
    // A code to a secondary address verifies nothing more; the notice goes to both addresses.
    const [row] = await bed.t.dataSource.query<{ email_verified: boolean }[]>(
      'SELECT email_verified FROM users WHERE id = $1',
      [user.id],
    );
    expect(row.email_verified).toBe(false);
    await bed.mailbox.next('bob@example.org');
    await bed.mailbox.next('bob.work@example.net');
  });

  it('mails the code for a look-alike of an address (KELVIN SIGN, full-width letters) to the address as stored, never as typed', async () => {
    await createUser(bed.t.app, {
      username: 'kate',
      email: 'kate@example.org',
      password: PASSWORD,
      emailVerified: true,
    });
    const earlier = bed.mailbox.received.length;
    // The mailbox lower-cases envelope addresses as JavaScript does (K → k): read the To header.
    const recipients = (mail: ReceivedMail): string[] =>
      [mail.parsed.to].flat().flatMap((to) => to?.value.map((a) => a.address ?? '') ?? []);
    for (const typed of ['\u212Aate@example.org', '\uff4b\uff41\uff54\uff45@example.org']) {
      expectStatus(await askForCode(browser(bed.t.app), typed), 303);
      expect(recipients(await bed.mailbox.next('kate@example.org'))).toEqual(['kate@example.org']);
    }
    expect(bed.mailbox.received.slice(earlier).flatMap(recipients)).toEqual([
      'kate@example.org',
      'kate@example.org',
    ]);
  });

  it('marks the primary address verified when the code went to it', async () => {
    const user = await createUser(bed.t.app, {
      username: 'carol',
      email: 'carol@example.org',
      password: PASSWORD,
      emailVerified: false,
    });
    const agent = browser(bed.t.app);
    expectStatus(await askForCode(agent, 'carol@example.org'), 303);
    const reset = await submitReset(
      agent,
      pathOf(linkOf(await bed.mailbox.next('carol@example.org'))),
    );
    expect(reset.status).toBe(303);
    const [row] = await bed.t.dataSource.query<{ user: boolean; entry: boolean }[]>(
      `SELECT u.email_verified AS user, e.verified AS entry FROM users u
         JOIN user_emails e ON e.user_id = u.id AND e."primary" WHERE u.id = $1`,
      [user.id],
    );
    expect(row).toEqual({ user: true, entry: true });
    expect((await resetRows())[0].details).toMatchObject({ emailVerified: true });
    await bed.mailbox.next('carol@example.org'); // the notice
  });

  it('refuses a weak, short or mismatched password without spending the code; the code works once', async () => {
    await oauthSetup(bed.t.app, { username: 'frank' });
    const agent = browser(bed.t.app);
    const asked = await askForCode(agent, 'frank@example.org');
    const code = codeOf(await bed.mailbox.next('frank@example.org'));
    const path = asked.headers.location;

    const weak = await submitReset(agent, path, { code, password: 'password1' });
    expect(weak.status).toBe(400);
    expect(weak.text).toContain('This password is too easy to guess');
    // Refused only as the account's own address: the rule knows whose password it is.
    const own = await submitReset(agent, path, { code, password: 'frank@example.org' });
    expect(own.status).toBe(400);
    expect(own.text).toContain('personal');
    const short = await submitReset(agent, path, { code, password: 'short' });
    expect(short.status).toBe(400);
    expect(short.text).toContain('Use at least 8 characters.');
    const mismatch = await submitReset(agent, path, { code, repeat: `${NEW_PASSWORD}!` });
    expect(mismatch.status).toBe(400);
    expect(mismatch.text).toContain('The two passwords are not the same.');

    expect((await submitReset(agent, path, { code })).status).toBe(303);
    const again = await submitReset(browser(bed.t.app), path, {
      code,
      password: `${NEW_PASSWORD}?`,
    });
    expect(again.status).toBe(400);
    expect(again.text).toContain(CODE_REFUSED);
    expect(again.text).toContain('href="/oauth2/forgot-password"');
    expect(await resetRows()).toHaveLength(1);
    expect((await bed.mailbox.next('frank@example.org')).subject).toMatch(/was changed/);
  });

  it(`spends the code after ${MAX_CODE_ATTEMPTS} wrong tries`, async () => {
    await oauthSetup(bed.t.app, { username: 'gina' });
    const agent = browser(bed.t.app);
    const asked = await askForCode(agent, 'gina@example.org');
    const code = codeOf(await bed.mailbox.next('gina@example.org'));
    const wrong = code === '000000' ? '000001' : '000000';
    const tries = await Promise.all(
      Array.from({ length: MAX_CODE_ATTEMPTS }, () =>
        submitReset(agent, asked.headers.location, { code: wrong }),
      ),
    );
    for (const res of tries) {
      expect(res.status).toBe(400);
      expect(res.text).toContain(CODE_REFUSED);
    }
    const right = await submitReset(agent, asked.headers.location, { code });
    expect(right.status).toBe(400);
    expect(right.text).toContain(CODE_REFUSED);
    expect(await resetRows()).toEqual([]);
  });

  it(`answers 429 with Retry-After past ${CODES_PER_EMAIL} codes an hour, for known and unknown addresses alike`, async () => {
    await oauthSetup(bed.t.app, { username: 'hank' });
    const refusals: { status: number; retryAfter: string; text: string }[] = [];
    for (const email of ['hank@example.org', 'nobody@example.org']) {
      const allowed = await Promise.all(
        Array.from({ length: CODES_PER_EMAIL }, () => askForCode(browser(bed.t.app), email)),
      );
      for (const res of allowed) expectStatus(res, 303);
      const refused = await askForCode(browser(bed.t.app), email);
      refusals.push({
        status: refused.status,
        retryAfter: refused.headers['retry-after'],
        text: shape(refused.text).replace(email, 'EMAIL'),
      });
    }
    expect(refusals[0].status).toBe(429);
    expect(Number(refusals[0].retryAfter)).toBeGreaterThan(0);
    expect(refusals[0].text).toContain('Too many codes were asked for.');
    expect(refusals[1]).toEqual(refusals[0]);
    for (let i = 0; i < CODES_PER_EMAIL; i++) await bed.mailbox.next('hank@example.org');
  });

  it('refuses forms without the CSRF token of this browser and form (403), sending and spending nothing', async () => {
    await oauthSetup(bed.t.app, { username: 'iris' });
    const agent = browser(bed.t.app);
    const page = await agent.get('/oauth2/forgot-password');
    const token = hiddenInput(page.text, 'csrf_token');
    const foreign = await browser(bed.t.app)
      .post('/oauth2/forgot-password')
      .type('form')
      .send({ csrf_token: token, email: 'iris@example.org' });
    expect(foreign.status).toBe(403);
    expect(foreign.text).toContain('Form expired');

    const asked = await askForCode(agent, 'iris@example.org');
    const code = codeOf(await bed.mailbox.next('iris@example.org'));
    // The refused form sent nothing: this is the only email to the address.
    expect(bed.mailbox.received.filter((m) => m.to.includes('iris@example.org'))).toHaveLength(1);
    // The forgot page's token does not fit the reset form of a code.
    const id = new URL(asked.headers.location, 'http://x').searchParams.get('id');
    const crossForm = await agent
      .post('/oauth2/reset-password')
      .type('form')
      .send({ id, csrf_token: token, code, password: NEW_PASSWORD, password_repeat: NEW_PASSWORD });
    expect(crossForm.status).toBe(403);
    expect((await submitReset(agent, asked.headers.location, { code })).status).toBe(303);
    await bed.mailbox.next('iris@example.org'); // the notice
  });

  it('lets an account without a password set one; without a request the reset ends at /account', async () => {
    const user = await createUser(bed.t.app, { username: 'dana', email: 'dana@example.org' });
    const agent = browser(bed.t.app);
    const asked = await askForCode(agent, 'dana@example.org');
    expect(asked.headers.location).not.toContain('request=');
    const reset = await submitReset(
      agent,
      pathOf(linkOf(await bed.mailbox.next('dana@example.org'))),
    );
    expect(reset.status).toBe(303);
    expect(reset.headers.location).toBe('/account');
    expect(sessionCookieFrom(reset)).toEqual(expect.any(String));
    expect((await resetRows())[0]).toMatchObject({
      actor_user_id: user.id,
      details: { firstPassword: true, sessionsEnded: 0, tokensRevoked: 0 },
    });
    const notice = await bed.mailbox.next('dana@example.org');
    expect(notice.subject).toBe('A password was set for your account at 127.0.0.1:3000');
    const signIn = await bed.t
      .http()
      .post('/api/console/session')
      .send({ login: 'dana', password: NEW_PASSWORD });
    expect(signIn.status).toBe(200);
  });

  it('refuses a link without a valid id, and a code whose address left the account meanwhile', async () => {
    const broken = await browser(bed.t.app).get('/oauth2/reset-password?id=nope&code=123456');
    expect(broken.status).toBe(400);
    expect(broken.text).toContain('Incomplete link');

    const user = await createUser(bed.t.app, { username: 'lena', email: 'lena@example.org' });
    await bed.t.dataSource.query(
      `INSERT INTO user_emails (user_id, email, verified) VALUES ($1, 'lena@work.example', true)`,
      [user.id],
    );
    const agent = browser(bed.t.app);
    const asked = await askForCode(agent, 'lena@work.example');
    const code = codeOf(await bed.mailbox.next('lena@work.example'));
    await bed.t.dataSource.query(`DELETE FROM user_emails WHERE email = 'lena@work.example'`);
    const refused = await submitReset(agent, asked.headers.location, { code });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(CODE_REFUSED);
    expect(await resetRows()).toEqual([]);
  });

  it('is offered only where the password form is: not for a request that leaves it out', async () => {
    const { application } = await oauthSetup(bed.t.app, { username: 'kate' });
    await bed.t.app.get(UpstreamProvidersService).create({
      id: 'corp',
      displayName: 'Corp SSO',
      kind: 'oidc',
      clientId: 'corp-client',
      clientSecret: 'corp-secret',
      settings: { issuer: 'https://corp.example' },
    });
    const agent = browser(bed.t.app);
    const start = await agent.get(
      authorizePath({
        ...authorizeParams({ clientId: application.clientId, challenge: pkce().challenge }),
        upstream_providers: 'corp',
      }),
    );
    const loginPage = await agent.get(start.headers.location);
    expect(loginPage.text).toContain('Corp SSO');
    expect(loginPage.text).not.toContain('Forgot your password?');
    const request = new URL(start.headers.location, 'http://x').searchParams.get('request')!;
    const forgot = await agent.get(
      `/oauth2/forgot-password?request=${encodeURIComponent(request)}`,
    );
    expect(forgot.status).toBe(400);
    expect(forgot.text).toContain('Password sign-in not offered');
  });

  it('changes the password even when the authorization request expired meanwhile, and says so', async () => {
    const { application } = await oauthSetup(bed.t.app, { username: 'jack' });
    const agent = browser(bed.t.app);
    const start = await agent.get(
      authorizePath(
        authorizeParams({ clientId: application.clientId, challenge: pkce().challenge }),
      ),
    );
    const request = new URL(start.headers.location, 'http://x').searchParams.get('request')!;
    expectStatus(await askForCode(agent, 'jack@example.org', request), 303);
    const link = linkOf(await bed.mailbox.next('jack@example.org'));
    bed.t.clock.advance(PENDING_TTL_SECONDS * 1000 + 1);

    const reset = await submitReset(agent, pathOf(link));
    expect(reset.status).toBe(200);
    expect(reset.text).toContain('Your new password is set and you are signed in.');
    expect(reset.headers['set-cookie']).toEqual(
      expect.arrayContaining([expect.stringMatching(new RegExp(`^${SESSION_COOKIE}=[\\w-]`))]),
    );
    expect(await resetRows()).toHaveLength(1);
    await bed.mailbox.next('jack@example.org'); // the notice
  });

  it("continues the authorization only in the browser that asked: another browser's reset lands on /account, signed out", async () => {
    const { application, user } = await oauthSetup(bed.t.app);
    // Someone starts an authorization of the client and asks a code for alice's address with it:
    // the email that reaches alice carries that request.
    const asker = browser(bed.t.app);
    const start = await asker.get(
      authorizePath(
        authorizeParams({ clientId: application.clientId, challenge: pkce().challenge }),
      ),
    );
    const request = query(start.headers.location).request;
    expectStatus(await askForCode(asker, 'alice@example.org', request), 303);
    const link = linkOf(await bed.mailbox.next('alice@example.org'));
    expect(link.searchParams.get('request')).toBe(request);

    // Alice follows the link in her own browser: the password is hers to set, the request is not.
    const own = browser(bed.t.app);
    const reset = await submitReset(own, pathOf(link));
    expect(reset.status).toBe(303);
    expect(reset.headers.location).toBe('/account');
    expect(reset.headers.location).not.toContain(REDIRECT_URI);
    expect(cookieNames(reset)).not.toContain(SESSION_COOKIE);
    expect((await own.get('/account')).headers.location).toBe('/account/login');
    const [grants] = await bed.t.dataSource.query<{ n: number }[]>(
      "SELECT count(*)::int AS n FROM events WHERE event_type IN ('authorization_granted', 'code_issued')",
    );
    expect(grants.n).toBe(0);
    const [sessions] = await bed.t.dataSource.query<{ n: number }[]>(
      'SELECT count(*)::int AS n FROM oauth_sessions WHERE user_id = $1',
      [user.id],
    );
    expect(sessions.n).toBe(0);
    // The password is set all the same, and the asker's browser is not signed in either.
    expect((await resetRows())[0].actor_user_id).toBe(user.id);
    const asAsker = await asker.get(
      authorizePath(
        authorizeParams({ clientId: application.clientId, challenge: pkce().challenge }),
      ),
    );
    expect(asAsker.headers.location).toMatch(/^\/oauth2\/login\?/);
    const withNew = await login(browser(bed.t.app), {
      clientId: application.clientId,
      challenge: pkce().challenge,
      password: NEW_PASSWORD,
    });
    expect(withNew.status).toBe(303);
    await bed.mailbox.next('alice@example.org'); // the notice
  });

  it('binds the reset cookie to the CSRF cookie of the browser that asked: copied alone, it continues nothing', async () => {
    const { application } = await oauthSetup(bed.t.app);
    const asker = browser(bed.t.app);
    const start = await asker.get(
      authorizePath(
        authorizeParams({ clientId: application.clientId, challenge: pkce().challenge }),
      ),
    );
    const asked = await askForCode(
      asker,
      'alice@example.org',
      query(start.headers.location).request,
    );
    expect(cookieNames(asked)).toContain('idsvc_reset');
    const link = linkOf(await bed.mailbox.next('alice@example.org'));

    // Another browser with its own CSRF cookie and the asker's reset cookie planted beside it.
    const page = await bed.t.http().get(pathOf(link));
    expectStatus(page, 200);
    const cookies = [
      ...cookieValues(page),
      ...cookieValues(asked).filter((c) => c.startsWith('idsvc_reset=')),
    ];
    const reset = await bed.t
      .http()
      .post('/oauth2/reset-password')
      .set('Cookie', cookies.join('; '))
      .type('form')
      .send({
        id: hiddenInput(page.text, 'id'),
        request: hiddenInput(page.text, 'request'),
        csrf_token: hiddenInput(page.text, 'csrf_token'),
        code: prefilledCode(page.text),
        password: NEW_PASSWORD,
        password_repeat: NEW_PASSWORD,
      });
    expect(reset.status).toBe(303);
    expect(reset.headers.location).toBe('/account');
    expect(cookieNames(reset)).not.toContain(SESSION_COOKIE);
    await bed.mailbox.next('alice@example.org'); // the notice
  });

  it('revokes every application token of the account: refresh refused, access token inactive, each application told; consent kept', async () => {
    const { application, clientSecret, user } = await oauthSetup(bed.t.app, {
      authMethod: 'secret',
    });
    const other = await createApplication(bed.t.app, {
      authMethod: 'secret',
      name: 'Other App',
      redirectUris: [REDIRECT_URI],
    });
    const clients: (TestClient & { id: number })[] = [
      { clientId: application.clientId, clientSecret, id: application.id },
      {
        clientId: other.application.clientId,
        clientSecret: other.clientSecret,
        id: other.application.id,
      },
    ];
    const tokens = [];
    for (const client of clients) tokens.push(await obtainTokens(bed.t.app, client));
    // A refresh leaves a rotated row beside the live one: the reset revokes both.
    const refreshed = await refreshAs(bed.t.app, clients[0], tokens[0].refresh_token);
    expectStatus(refreshed, 200);
    tokens[0] = refreshed.body as (typeof tokens)[number];

    const agent = browser(bed.t.app);
    expectStatus(await askForCode(agent, 'alice@example.org'), 303);
    const reset = await submitReset(
      agent,
      pathOf(linkOf(await bed.mailbox.next('alice@example.org'))),
    );
    expect(reset.status).toBe(303);

    for (const [i, client] of clients.entries()) {
      const refresh = await refreshAs(bed.t.app, client, tokens[i].refresh_token);
      expect([refresh.status, refresh.body.error]).toEqual([400, 'invalid_grant']);
      const introspected = await callAs(bed.t.app, 'introspect', client, {
        token: tokens[i].access_token,
      });
      expect(introspected.body).toEqual({ active: false });
      expect(await userinfoStatus(bed.t.app, tokens[i].access_token)).toBe(401);
    }
    // Each application reads one token_revoked event that says why and how many.
    for (const [i, client] of clients.entries()) {
      const key = (await createApiKey(bed.t.app, client.id, ['user:read'])).plaintext;
      const events = await bed.t
        .http()
        .get('/api/v1/app/events?eventType=token_revoked')
        .set(...bearer(key));
      expect(events.status).toBe(200);
      expect(events.body.items).toEqual([
        {
          id: expect.any(Number),
          eventType: 'token_revoked',
          protocol: 'oauth2',
          status: 'success',
          userId: user.id,
          scope: 'read',
          description: `password reset of the account: ${i === 0 ? 2 : 1} token(s) revoked`,
          createdAt: expect.any(String),
        },
      ]);
    }
    expect((await resetRows())[0].details).toMatchObject({ tokensRevoked: 3 });

    // Consent is kept: signing in again with the new password goes straight back with a code.
    const again = await login(browser(bed.t.app), {
      clientId: application.clientId,
      challenge: pkce().challenge,
      password: NEW_PASSWORD,
    });
    expect(again.status).toBe(303);
    expect(again.headers.location.startsWith(`${REDIRECT_URI}?`)).toBe(true);
    expect(query(again.headers.location).code).toEqual(expect.any(String));
    await bed.mailbox.next('alice@example.org'); // the notice
  });
});
