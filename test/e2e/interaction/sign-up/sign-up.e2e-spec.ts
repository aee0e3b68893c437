import { DEFAULT_LOCALE } from '../../../../src/common/i18n/i18n';
import { AppConfig } from '../../../../src/config/app-config';
import { codeMail } from '../../../../src/modules/interaction/one-time-codes/code-mail';
import { CODES_PER_EMAIL } from '../../../../src/modules/interaction/one-time-codes/code-quota';
import { CODE_TTL_SECONDS } from '../../../../src/modules/interaction/one-time-codes/one-time-codes.service';
import { SIGN_UPS_PER_ADDRESS } from '../../../../src/modules/interaction/sign-up/sign-up-attempts';
import { Csrf } from '../../../../src/modules/sessions/csrf';
import { PasswordCheckQueue } from '../../../../src/modules/sessions/password-check-queue';
import { UpstreamProvidersService } from '../../../../src/modules/upstreams/providers/upstream-providers.service';
import { UsersService } from '../../../../src/modules/users/users.service';
import { createApiKey, createApplication, createUser } from '../../../factories';
import {
  approveFrom,
  authorizeParams,
  authorizePath,
  browser,
  exchangeCode,
  expectStatus,
  hiddenInput,
  pkce,
  REDIRECT_URI,
  type Agent,
} from '../../../support/oauth';
import { codeOf, linkOf, startMailbox } from '../../../support/smtp-server';
import { expectMailIn, expectPageIn } from '../../../support/languages';
import { useMailboxBed } from '../../../support/mailbox-bed';
import { createTestApp } from '../../../support/test-app';

// Sign-up on the login pages, over HTTP, with a real SMTP server on loopback: verify-first (the
// account exists once the emailed code is entered), the same answer for an address that already
// has an account, the limits, and the authorization continuing as after a sign-in.

const STRONG = 'violet kettle marching north';
const CODE_PAGE = /^\/oauth2\/signup\/verify\?request=[\w.%-]+&id=[0-9a-f-]{36}$/;

/**
 * The page without what differs from one rendering to the next (tokens, ids, the request, also
 * inside the language switcher's link back to the page).
 */
const setCookies = (res: { headers: Record<string, unknown> }): string[] =>
  (res.headers['set-cookie'] as string[] | undefined) ?? [];

const comparable = (page: string): string =>
  page.replace(/value="[^"]*"/g, 'value=""').replace(/(request|id)(=|%3D)[^"&%]+/g, '$1$2');

describe('sign-up', () => {
  const bed = useMailboxBed();

  const newApp = async (signUpEnabled = true) =>
    (
      await createApplication(bed.t.app, {
        name: 'Demo App',
        authMethod: 'none',
        redirectUris: [REDIRECT_URI],
        signUpEnabled,
      })
    ).application;

  /** authorize → the login page (its HTML) for a new browser. */
  async function loginPage(agent: Agent, clientId: string, challenge = pkce().challenge) {
    const start = await agent.get(
      authorizePath(authorizeParams({ clientId, challenge, scope: 'openid read email' })),
    );
    expectStatus(start, 302);
    const page = await agent.get(start.headers.location);
    expectStatus(page, 200);
    return page.text;
  }

  /** The login page's "Create an account" link, followed: the sign-up form. */
  async function signUpForm(agent: Agent, clientId: string, challenge?: string) {
    const login = await loginPage(agent, clientId, challenge);
    const href = /<a href="(\/oauth2\/signup\?request=[^"]+)">Create an account<\/a>/.exec(login);
    if (!href) throw new Error('no "Create an account" link on the login page');
    const page = await agent.get(href[1]);
    expectStatus(page, 200);
    return page.text;
  }

  const submit = (agent: Agent, form: string, fields: Record<string, string>) =>
    agent
      .post('/oauth2/signup')
      .type('form')
      .send({
        request: hiddenInput(form, 'request'),
        csrf_token: hiddenInput(form, 'csrf_token'),
        ...fields,
      });

  /** Opens the emailed link (on the test server) and submits the code form as it is filled in. */
  async function enterEmailedCode(agent: Agent, to: string) {
    const mail = await bed.mailbox.next(to);
    const link = linkOf(mail);
    const page = await agent.get(link.pathname + link.search);
    expectStatus(page, 200);
    expect(hiddenInput(page.text, 'id')).toBe(link.searchParams.get('id'));
    expect(page.text).toContain(`value="${codeOf(mail)}"`);
    return agent
      .post(link.pathname)
      .type('form')
      .send({
        request: hiddenInput(page.text, 'request'),
        csrf_token: hiddenInput(page.text, 'csrf_token'),
        id: hiddenInput(page.text, 'id'),
        code: codeOf(mail),
      });
  }

  it('creates the account from the emailed code, signs in, and the client gets a code that redeems', async () => {
    const application = await newApp();
    const { plaintext } = await createApiKey(bed.t.app, application.id, ['user:read']);
    const agent = browser(bed.t.app);
    const { verifier, challenge } = pkce();
    const form = await signUpForm(agent, application.clientId, challenge);
    expect(form).toContain('autocomplete="new-password"');
    expect(form).toContain('autocomplete="email"');
    expect(form).toContain('autocomplete="username"');

    const sent = await submit(agent, form, {
      username: 'Nora',
      email: ' Nora@Example.org ',
      password: STRONG,
    });
    expectStatus(sent, 303);
    expect(sent.headers.location).toMatch(CODE_PAGE);
    // No account before the code is entered; the code keeps the hash, never the password.
    expect(await bed.t.dataSource.query('SELECT 1 FROM users')).toHaveLength(0);
    const [kept] = await bed.t.dataSource.query<{ payload: { passwordHash: string } }[]>(
      `SELECT payload FROM one_time_codes WHERE purpose = 'sign_up'`,
    );
    expect(kept.payload.passwordHash).toMatch(/^scrypt\$/);
    expect(JSON.stringify(kept)).not.toContain(STRONG);

    const mail = bed.mailbox.received.at(-1)!;
    expect(mail.to).toEqual(['nora@example.org']);
    expect(mail.subject).toBe(
      `${codeOf(mail)} is your code to create an account at 127.0.0.1:3000`,
    );
    expect(mail.text).toContain('to continue to Demo App');
    expect(linkOf(mail).origin).toBe('http://127.0.0.1:3000');
    expect(linkOf(mail).pathname + '?' + linkOf(mail).searchParams.toString()).toMatch(
      /^\/oauth2\/signup\/verify\?request=.+&id=[0-9a-f-]{36}&code=\d{6}$/,
    );

    const created = await enterEmailedCode(agent, 'nora@example.org');
    expectStatus(created, 303);
    expect(created.headers.location).toMatch(/^\/oauth2\/consent\?request=/);
    const back = await approveFrom(agent, created.headers.location);
    const tokens = await exchangeCode(bed.t.app, application.clientId, back.code, verifier);

    const me = await bed.t
      .http()
      .get('/api/oauth2/userinfo')
      .set('Authorization', `Bearer ${tokens.access_token}`);
    expect(me.body).toMatchObject({
      username: 'Nora',
      email: 'nora@example.org',
      email_verified: true,
    });
    const [audit] = await bed.t.dataSource.query<{ action: string; target: string; ip: string }[]>(
      'SELECT action, target, ip FROM audit_log',
    );
    expect(audit).toEqual({
      action: 'user.sign_up',
      target: expect.stringMatching(/^user:\d+$/),
      ip: expect.any(String),
    });
    const emails = await bed.t
      .http()
      .get('/api/oauth2/user/emails')
      .set('Authorization', `Bearer ${tokens.access_token}`);
    expect(emails.body).toEqual([
      { email: 'nora@example.org', verified: true, primary: true, visibility: 'public' },
    ]);
    const users = await bed.t
      .http()
      .get('/api/v1/app/users')
      .set('Authorization', `Bearer ${plaintext}`);
    expect(users.body.items).toEqual([
      expect.objectContaining({
        username: 'Nora',
        email: 'nora@example.org',
        emailVerified: true,
        lastLoginAt: expect.any(String),
      }),
    ]);

    // The chosen password signs in from now on.
    const again = browser(bed.t.app);
    const login = await loginPage(again, application.clientId);
    const signIn = await again
      .post('/oauth2/login')
      .type('form')
      .send({
        request: hiddenInput(login, 'request'),
        csrf_token: hiddenInput(login, 'csrf_token'),
        username: 'nora@example.org',
        password: STRONG,
      });
    expectStatus(signIn, 303);
  });

  it('mails the code and the notice in the language of the page that asked (Accept-Language)', async () => {
    const application = await newApp();
    await createUser(bed.t.app, { username: 'alice', email: 'alice@example.org' });
    for (const [username, email] of [
      ['nora', 'nora@example.org'],
      ['someone', 'alice@example.org'],
    ]) {
      const agent = browser(bed.t.app);
      const form = await signUpForm(agent, application.clientId);
      const sent = await submit(agent, form, { username, email, password: STRONG }).set(
        'Accept-Language',
        'zh-CN,en;q=0.5',
      );
      expectStatus(sent, 303);
    }
    const code = await bed.mailbox.next('nora@example.org');
    expectMailIn(
      code,
      'zh-CN',
      `${codeOf(code)} 是你在 127.0.0.1:3000 注册账号的验证码`,
      '有人请求用这个邮箱在 127.0.0.1:3000 注册账号，以继续使用 Demo App。',
      '请在你开始注册的浏览器中输入这个验证码',
      '如果不是你本人，请忽略这封邮件：这样做是安全的，不会创建任何账号。',
      '15 分钟内有效',
      '完成注册账号',
    );
    const notice = await bed.mailbox.next('alice@example.org');
    expectMailIn(notice, 'zh-CN', '你在 127.0.0.1:3000 已经有账号了', '这个邮箱已属于一个账号');
    expect(linkOf(notice).pathname).toBe('/oauth2/login');
  });

  it('answers an address that has an account exactly as a new one, and mails a notice instead of a code', async () => {
    const application = await newApp();
    await createUser(bed.t.app, { username: 'alice', email: 'alice@example.org' });

    const answers = [];
    for (const [username, email] of [
      ['newcomer', 'newcomer@example.org'],
      ['someone', 'ALICE@example.org'],
    ]) {
      const agent = browser(bed.t.app);
      const form = await signUpForm(agent, application.clientId);
      const sent = await submit(agent, form, { username, email, password: STRONG });
      const page = await agent.get(sent.headers.location);
      answers.push({ sent, page });
    }
    const [fresh, existing] = answers;
    expect(existing.sent.status).toBe(fresh.sent.status);
    // The same cookie binds the code, or the decoy id, to the browser: same name, flags, length.
    const bindingOf = (res: { headers: Record<string, unknown> }) =>
      setCookies(res).map((line) =>
        line.replace(/^(idsvc_signup=)[\w-]{43};/, '$1…;').replace(/Expires=[^;]+/, 'Expires=…'),
      );
    expect(bindingOf(fresh.sent)).toEqual([
      `idsvc_signup=…; Max-Age=${CODE_TTL_SECONDS}; Path=/; Expires=…; HttpOnly; SameSite=Lax`,
    ]);
    expect(bindingOf(existing.sent)).toEqual(bindingOf(fresh.sent));
    expect(fresh.sent.status).toBe(303);
    expect(existing.sent.headers.location).toMatch(CODE_PAGE);
    expect(fresh.sent.headers.location).toMatch(CODE_PAGE);
    expect(existing.page.status).toBe(fresh.page.status);
    expect(comparable(existing.page.text)).toBe(comparable(fresh.page.text));

    expect(codeOf(await bed.mailbox.next('newcomer@example.org'))).toMatch(/^\d{6}$/);
    const notice = await bed.mailbox.next('alice@example.org');
    expect(notice.subject).toBe('You already have an account at 127.0.0.1:3000');
    expect(() => codeOf(notice)).toThrow();
    expect(linkOf(notice).pathname).toBe('/oauth2/login');
    expect(notice.text).toBe(
      codeMail('sign_up_existing', {
        to: 'alice@example.org',
        locale: DEFAULT_LOCALE,
        site: '127.0.0.1:3000',
        link: linkOf(notice).toString(),
        applicationName: 'Demo App',
      }).text,
    );

    // Whatever is entered on the page of the address with an account is a wrong code.
    const agent = browser(bed.t.app);
    const form = await signUpForm(agent, application.clientId);
    const sent = await submit(agent, form, {
      username: 'other',
      email: 'alice@example.org',
      password: STRONG,
    });
    const page = await agent.get(sent.headers.location);
    const entered = await agent
      .post('/oauth2/signup/verify')
      .type('form')
      .send({
        request: hiddenInput(page.text, 'request'),
        csrf_token: hiddenInput(page.text, 'csrf_token'),
        id: hiddenInput(page.text, 'id'),
        code: '123456',
      });
    expectStatus(entered, 400);
    expect(entered.text).toContain('The code is wrong or has expired.');
    const users = await bed.t.dataSource.query<{ username: string }[]>(
      'SELECT username FROM users',
    );
    expect(users).toEqual([{ username: 'alice' }]);
  });

  it('says plainly that a username is taken (409), whatever its case, keeping the fields but the password', async () => {
    const application = await newApp();
    await createUser(bed.t.app, { username: 'alice', email: 'alice@example.org' });
    const agent = browser(bed.t.app);
    const form = await signUpForm(agent, application.clientId);
    const before = bed.mailbox.received.length;
    const res = await submit(agent, form, {
      username: 'ALICE',
      email: 'other@example.org',
      password: STRONG,
    });
    expectStatus(res, 409);
    expect(res.text).toContain('The username ALICE is taken. Choose another one.');
    expect(res.text).toContain('value="other@example.org"');
    expect(res.text).not.toContain(STRONG);
    expect(bed.mailbox.received).toHaveLength(before);
  });

  it('refuses a weak password, a bad username and a bad address with 400 and the reason', async () => {
    const application = await newApp();
    const agent = browser(bed.t.app);
    const form = await signUpForm(agent, application.clientId);
    const cases: [Record<string, string>, string][] = [
      [
        { username: 'nora', email: 'nora@example.org', password: 'password1' },
        'This password is too easy to guess (this is a commonly used password).',
      ],
      [{ username: 'nora', email: 'nora@example.org', password: 'short' }, 'Use at least 8'],
      [{ username: 'n', email: 'nora@example.org', password: STRONG }, 'Username must be 3 to 64'],
      [{ username: 'nora', email: 'nora.example.org', password: STRONG }, 'Email is not a valid'],
    ];
    for (const [fields, reason] of cases) {
      const res = await submit(agent, form, fields);
      expectStatus(res, 400);
      expect(res.text).toContain(reason);
      expect(res.text).toContain(`value="${fields.username}"`);
      expect(res.text).toContain(`value="${fields.email}"`);
      expect(res.text).not.toContain(`value="${fields.password}"`);
    }
    // Spellings a mail server delivers to nora@example.org: another account of the same inbox.
    for (const email of ['nora@example.org,', '"nora"@example.org', 'nora@[127.0.0.1]']) {
      const res = await submit(agent, form, { username: 'nora', email, password: STRONG });
      expectStatus(res, 400);
      expect(res.text).toContain('Email is not a valid');
    }
    expect(bed.mailbox.received.filter((m) => m.to.includes('nora@example.org'))).toHaveLength(0);
    expect(await bed.t.dataSource.query('SELECT 1 FROM one_time_codes')).toHaveLength(0);
  });

  it("words zxcvbn's reason for a weak password in the page's language", async () => {
    const application = await newApp();
    const agent = browser(bed.t.app);
    const form = await signUpForm(agent, application.clientId);
    const fields = { username: 'nora', email: 'nora@example.org' };
    const chinese = await submit(agent, form, { ...fields, password: 'password1' }).set(
      'Accept-Language',
      'zh-CN',
    );
    expectStatus(chinese, 400);
    expectPageIn(chinese.text, 'zh-CN', '这个密码太容易被猜到（这是一个常用密码）。');
    const keyboard = await submit(agent, form, { ...fields, password: 'qwertyuiop' }).set(
      'Accept-Language',
      'zh-CN',
    );
    expectPageIn(keyboard.text, 'zh-CN', '（这是一个经常被使用的密码）');
  });

  it('is neither offered nor answered when the application has not turned it on (404)', async () => {
    const application = await newApp(false);
    const agent = browser(bed.t.app);
    const login = await loginPage(agent, application.clientId);
    expect(login).not.toContain('Create an account');
    const request = encodeURIComponent(hiddenInput(login, 'request'));
    const form = await agent.get(`/oauth2/signup?request=${request}`);
    expectStatus(form, 404);
    expect(form.text).toContain('Creating an account is not offered here.');
    const post = await agent
      .post('/oauth2/signup')
      .type('form')
      .send({
        request: hiddenInput(login, 'request'),
        csrf_token: hiddenInput(login, 'csrf_token'),
        username: 'nora',
        email: 'nora@example.org',
        password: STRONG,
      });
    expectStatus(post, 404);
    const code = await agent.get(
      `/oauth2/signup/verify?request=${request}&id=0b8f6c1e-8d3e-4b5e-9a77-000000000000`,
    );
    expectStatus(code, 404);
  });

  it('is neither offered nor answered when the request leaves password sign-in out (404)', async () => {
    const application = await newApp();
    await bed.t.app.get(UpstreamProvidersService).create({
      id: 'github',
      displayName: 'GitHub',
      kind: 'github',
      clientId: 'gh-client',
      clientSecret: 'gh-secret',
      settings: {},
    });
    const agent = browser(bed.t.app);
    const start = await agent.get(
      authorizePath(
        authorizeParams({
          clientId: application.clientId,
          challenge: pkce().challenge,
          extra: { upstream_providers: 'github' },
        }),
      ),
    );
    const login = await agent.get(start.headers.location);
    expectStatus(login, 200);
    expect(login.text).toContain('Sign in with GitHub');
    expect(login.text).not.toContain('Create an account');
    const request = new URL(start.headers.location, 'http://x').searchParams.get('request')!;
    const form = await agent.get(`/oauth2/signup?request=${encodeURIComponent(request)}`);
    expectStatus(form, 404);
  });

  it('refuses a form this browser was not shown (CSRF), on both forms', async () => {
    const application = await newApp();
    const agent = browser(bed.t.app);
    const form = await signUpForm(agent, application.clientId);
    const before = bed.mailbox.received.length;
    const forged = await browser(bed.t.app)
      .post('/oauth2/signup')
      .type('form')
      .send({
        request: hiddenInput(form, 'request'),
        csrf_token: hiddenInput(form, 'csrf_token'),
        username: 'nora',
        email: 'nora@example.org',
        password: STRONG,
      });
    expectStatus(forged, 403);
    expect(bed.mailbox.received).toHaveLength(before);

    const sent = await submit(agent, form, {
      username: 'nora',
      email: 'nora@example.org',
      password: STRONG,
    });
    const code = codeOf(await bed.mailbox.next('nora@example.org'));
    const page = await agent.get(sent.headers.location);
    const forgedCode = await browser(bed.t.app)
      .post('/oauth2/signup/verify')
      .type('form')
      .send({
        request: hiddenInput(page.text, 'request'),
        csrf_token: hiddenInput(page.text, 'csrf_token'),
        id: hiddenInput(page.text, 'id'),
        code,
      });
    expectStatus(forgedCode, 403);
    expect(await bed.t.dataSource.query('SELECT 1 FROM users')).toHaveLength(0);
  });

  it("never creates the account from the emailed link opened in another browser: the address's owner does not finish someone else's sign-up", async () => {
    const application = await newApp();
    // Mallory signs up with Nora's address and a password of his own.
    const mallory = browser(bed.t.app);
    const form = await signUpForm(mallory, application.clientId);
    const sent = await submit(mallory, form, {
      username: 'nora',
      email: 'nora@example.org',
      password: 'mallory chose this password',
    });
    expectStatus(sent, 303);
    const mail = await bed.mailbox.next('nora@example.org');

    // Nora opens the link in her own browser: no form, no code filled in, only where to enter it.
    const link = linkOf(mail);
    const nora = browser(bed.t.app);
    const opened = await nora.get(link.pathname + link.search);
    expectStatus(opened, 200);
    expect(opened.text).toContain('Enter the code where you started');
    expect(opened.text).toContain('go back to the browser where you started');
    expect(opened.text).not.toContain('<form');
    expect(opened.text).not.toContain(`value="${codeOf(mail)}"`);
    expect(setCookies(opened)).toEqual([]);

    // Even a form with a valid CSRF token of her browser (one a page could have forged) is
    // refused before the code is looked at: nothing is created, and the try is not counted.
    const id = link.searchParams.get('id') ?? '';
    const csrf = bed.t.app
      .get(Csrf)
      .issue({ ip: '', userAgent: '', secure: false }, `sign-up-code:${id}`);
    const posted = await bed.t
      .http()
      .post('/oauth2/signup/verify')
      .set('Cookie', `idsvc_csrf=${csrf.cookies[0].value}`)
      .type('form')
      .send({
        request: link.searchParams.get('request'),
        csrf_token: csrf.token,
        id,
        code: codeOf(mail),
      });
    expectStatus(posted, 400);
    expect(posted.text).toContain('Enter the code where you started');
    expect(await bed.t.dataSource.query('SELECT 1 FROM users')).toHaveLength(0);
    const [row] = await bed.t.dataSource.query<{ attempts: number; consumed_at: Date | null }[]>(
      'SELECT attempts, consumed_at FROM one_time_codes WHERE id = $1',
      [id],
    );
    expect(row).toEqual({ attempts: 0, consumed_at: null });

    // Nora signs up herself: her code, in her browser, makes the account with her password.
    const own = await signUpForm(nora, application.clientId);
    expectStatus(
      await submit(nora, own, { username: 'nora', email: 'nora@example.org', password: STRONG }),
      303,
    );
    expectStatus(await enterEmailedCode(nora, 'nora@example.org'), 303);
    // Mallory's password opens nothing; Nora's opens her account.
    const signIn = async (password: string) => {
      const agent = browser(bed.t.app);
      const login = await loginPage(agent, application.clientId);
      const res = await agent
        .post('/oauth2/login')
        .type('form')
        .send({
          request: hiddenInput(login, 'request'),
          csrf_token: hiddenInput(login, 'csrf_token'),
          username: 'nora@example.org',
          password,
        });
      return res.status;
    };
    expect(await signIn('mallory chose this password')).not.toBe(303);
    expect(await signIn(STRONG)).toBe(303);

    // The email Nora got from Mallory's try said who asked for what, and that ignoring it is safe.
    expect(mail.text).toContain(
      'Someone asked to create an account at 127.0.0.1:3000 with this address, to continue to Demo App.',
    );
    expect(mail.text).toContain(
      'If it was not you, ignore this email: that is safe, and no account is created.',
    );
  });

  it('is not fooled by the sign-up cookie copied alone into another browser: it is bound to the CSRF cookie of the browser that asked', async () => {
    const application = await newApp();
    const mallory = browser(bed.t.app);
    const form = await signUpForm(mallory, application.clientId);
    const sent = await submit(mallory, form, {
      username: 'nora',
      email: 'nora@example.org',
      password: 'mallory chose this password',
    });
    expectStatus(sent, 303);
    const copied = setCookies(sent)
      .map((cookie) => cookie.split(';')[0])
      .find((cookie) => cookie.startsWith('idsvc_signup='));
    expect(copied).toBeDefined();
    const link = linkOf(await bed.mailbox.next('nora@example.org'));

    // Another browser with a CSRF cookie of its own, and Mallory's sign-up cookie planted in it.
    const page = await bed.t.http().get('/oauth2/forgot-password');
    const ownCsrf = setCookies(page)
      .map((cookie) => cookie.split(';')[0])
      .find((cookie) => cookie.startsWith('idsvc_csrf='));
    expect(ownCsrf).toBeDefined();
    const opened = await bed.t
      .http()
      .get(link.pathname + link.search)
      .set('Cookie', `${ownCsrf}; ${copied}`);
    expectStatus(opened, 200);
    expect(opened.text).toContain('Enter the code where you started');
    expect(opened.text).not.toContain('<form');
    // In the browser that asked, the same link shows the form.
    const there = await mallory.get(link.pathname + link.search);
    expect(there.text).toContain('<form');
  });

  it('still creates the account when the authorization request expired while the email was read', async () => {
    const application = await newApp();
    const agent = browser(bed.t.app);
    const form = await signUpForm(agent, application.clientId);
    const sent = await submit(agent, form, {
      username: 'nora',
      email: 'nora@example.org',
      password: STRONG,
    });
    expectStatus(sent, 303);
    // The request lives 10 minutes, the code 15: the person comes back after 12.
    bed.t.clock.advance(12 * 60_000);
    const res = await enterEmailedCode(agent, 'nora@example.org');
    expectStatus(res, 200);
    expect(res.text).toContain('Your account is ready');
    expect(res.text).toContain('href="/account"');
    const [user] = await bed.t.dataSource.query<{ username: string; email_verified: boolean }[]>(
      'SELECT username, email_verified FROM users',
    );
    expect(user).toEqual({ username: 'nora', email_verified: true });
    // Signed in: the account page opens in this browser.
    expectStatus(await agent.get('/account'), 200);
  });

  it('answers a wrong code with 400 and a way to start again; the right one still works', async () => {
    const application = await newApp();
    const agent = browser(bed.t.app);
    const form = await signUpForm(agent, application.clientId);
    const sent = await submit(agent, form, {
      username: 'nora',
      email: 'nora@example.org',
      password: STRONG,
    });
    const code = codeOf(await bed.mailbox.next('nora@example.org'));
    const page = await agent.get(sent.headers.location);
    const fields = {
      request: hiddenInput(page.text, 'request'),
      csrf_token: hiddenInput(page.text, 'csrf_token'),
      id: hiddenInput(page.text, 'id'),
    };
    const wrong = await agent
      .post('/oauth2/signup/verify')
      .type('form')
      .send({ ...fields, code: code === '000000' ? '000001' : '000000' });
    expectStatus(wrong, 400);
    expect(wrong.text).toContain('The code is wrong or has expired.');
    expect(wrong.text).toMatch(/<a href="\/oauth2\/signup\?request=[^"]+">Start again<\/a>/);
    const right = await agent
      .post('/oauth2/signup/verify')
      .type('form')
      .send({ ...fields, csrf_token: hiddenInput(wrong.text, 'csrf_token'), code });
    expectStatus(right, 303);
    expect(right.headers.location).toMatch(/^\/oauth2\/consent\?request=/);
  });

  it('answers 409 when the username or the address was taken before the code was entered', async () => {
    const application = await newApp();
    const cases = [
      ['nora', 'nora@example.org', { username: 'NORA', email: 'someone@example.org' }],
      ['nina', 'nina@example.org', { username: 'someone2', email: 'Nina@example.org' }],
    ] as const;
    for (const [username, email, taken] of cases) {
      const agent = browser(bed.t.app);
      const form = await signUpForm(agent, application.clientId);
      expectStatus(await submit(agent, form, { username, email, password: STRONG }), 303);
      const other = await bed.t.app.get(UsersService).create(taken);
      const res = await enterEmailedCode(agent, email);
      expectStatus(res, 409);
      expect(res.text).toContain('Start again');
      const names = await bed.t.dataSource.query<{ id: string }[]>(
        'SELECT id FROM users WHERE lower(username) = $1 OR lower(email) = $2',
        [username, email],
      );
      expect(names).toEqual([{ id: other.id }]);
    }
  });

  it(`counts sign-ups per client address before hashing: past ${SIGN_UPS_PER_ADDRESS} in 15 minutes, 429`, async () => {
    const application = await newApp();
    const agent = browser(bed.t.app);
    const form = await signUpForm(agent, application.clientId);
    for (let i = 0; i < SIGN_UPS_PER_ADDRESS; i++) {
      expectStatus(await submit(agent, form, { username: '-', email: 'x', password: '' }), 400);
    }
    const refused = await submit(agent, form, {
      username: 'nora',
      email: 'nora@example.org',
      password: STRONG,
    });
    expectStatus(refused, 429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.text).toContain('Too many accounts were asked for from this network.');
    expect(await bed.t.dataSource.query('SELECT 1 FROM one_time_codes')).toHaveLength(0);
  });

  it(`sends at most ${CODES_PER_EMAIL} sign-up emails an hour to one address, then 429 with Retry-After`, async () => {
    const application = await newApp();
    const agent = browser(bed.t.app);
    const form = await signUpForm(agent, application.clientId);
    for (let i = 0; i < CODES_PER_EMAIL; i++) {
      const sent = await submit(agent, form, {
        username: `nora${i}`,
        email: 'nora@example.org',
        password: STRONG,
      });
      expectStatus(sent, 303);
    }
    const refused = await submit(agent, form, {
      username: 'nora9',
      email: 'nora@example.org',
      password: STRONG,
    });
    expectStatus(refused, 429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.text).toContain('Too many codes were asked for');
  });

  it('answers 503 at once while the password queue is full, hashing nothing', async () => {
    const application = await newApp();
    const agent = browser(bed.t.app);
    const form = await signUpForm(agent, application.clientId);
    const queue = bed.t.app.get(PasswordCheckQueue);
    const config = bed.t.app.get(AppConfig);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const holders: Promise<unknown>[] = [];
    // Every running place and every waiting place taken (PASSWORD_HASH_CONCURRENCY + _QUEUE).
    const places = config.passwordHashConcurrency + config.passwordHashQueue;
    for (let i = 0; i < places; i++) holders.push(queue.run(`holder-${i}`, () => held));
    try {
      const busy = await submit(agent, form, {
        username: 'nora',
        email: 'nora@example.org',
        password: STRONG,
      });
      expectStatus(busy, 503);
      expect(busy.headers['retry-after']).toBe('1');
    } finally {
      release();
      await Promise.all(holders);
    }
    expect(await bed.t.dataSource.query('SELECT 1 FROM one_time_codes')).toHaveLength(0);
  });
});

describe('sign-up, turned off or without mail', () => {
  it('offers and answers nothing when the deployment turns sign-up off (404)', async () => {
    const t = await createTestApp({ env: { SIGNUP_ENABLED: 'false' } });
    try {
      const { application } = await createApplication(t.app, {
        authMethod: 'none',
        redirectUris: [REDIRECT_URI],
        signUpEnabled: true,
      });
      const agent = browser(t.app);
      const start = await agent.get(
        authorizePath(
          authorizeParams({ clientId: application.clientId, challenge: pkce().challenge }),
        ),
      );
      const login = await agent.get(start.headers.location);
      expectStatus(login, 200);
      expect(login.text).not.toContain('Create an account');
      const request = hiddenInput(login.text, 'request');
      expectStatus(await agent.get(`/oauth2/signup?request=${encodeURIComponent(request)}`), 404);
      const post = await agent
        .post('/oauth2/signup')
        .type('form')
        .send({
          request,
          csrf_token: hiddenInput(login.text, 'csrf_token'),
          username: 'nora',
          email: 'nora@example.org',
          password: STRONG,
        });
      expectStatus(post, 404);
    } finally {
      await t.close();
    }
  });

  it('says the email could not be sent, the same for a new address and one with an account', async () => {
    const closed = await startMailbox();
    await closed.close();
    const t = await createTestApp({ env: { SMTP_URL: closed.url } });
    try {
      const { application } = await createApplication(t.app, {
        authMethod: 'none',
        redirectUris: [REDIRECT_URI],
        signUpEnabled: true,
      });
      await createUser(t.app, { username: 'alice', email: 'alice@example.org' });
      const pages = [];
      for (const [username, email] of [
        ['nora', 'nora@example.org'],
        ['other', 'alice@example.org'],
      ]) {
        const agent = browser(t.app);
        const start = await agent.get(
          authorizePath(
            authorizeParams({ clientId: application.clientId, challenge: pkce().challenge }),
          ),
        );
        const login = await agent.get(start.headers.location);
        const href = /href="(\/oauth2\/signup\?request=[^"]+)"/.exec(login.text)![1];
        const form = (await agent.get(href)).text;
        const res = await agent
          .post('/oauth2/signup')
          .type('form')
          .send({
            request: hiddenInput(form, 'request'),
            csrf_token: hiddenInput(form, 'csrf_token'),
            username,
            email,
            password: STRONG,
          });
        pages.push(res);
      }
      for (const res of pages) {
        expectStatus(res, 503);
        expect(res.text).toContain('The email could not be sent.');
      }
      expect(pages[0].text).toBe(pages[1].text);
    } finally {
      await t.close();
    }
  });
});
