import { createApplication } from '../../../factories';
import { expectPageIn } from '../../../support/languages';
import {
  authorizeParams,
  authorizePath,
  browser,
  expectStatus,
  hiddenInput,
  ISSUER,
  oauthSetup,
  PASSWORD,
  pkce,
  REDIRECT_URI,
  type Agent,
} from '../../../support/oauth';
import { visitUpstream } from '../../../support/upstream-standins/browser';
import { useUpstreamBed } from '../../../support/upstream-bed';

// The pages' languages (docs/languages.md): ui_locales of the authorization request, then the
// switcher's cookie, then Accept-Language, then English; each page in the chosen language, with
// no catalog key left showing.

const unescape = (value: string): string => value.replace(/&amp;/g, '&');

describe('page languages', () => {
  const bed = useUpstreamBed({
    account: {
      sub: 'corp-7',
      email: 'wei@corp.example',
      email_verified: true,
      preferred_username: 'wei',
    },
  });

  /** /oauth2/authorize with `extra` → the page it leads to. */
  async function start(agent: Agent, clientId: string, extra: Record<string, string> = {}) {
    const res = await agent.get(
      authorizePath({ ...authorizeParams({ clientId, challenge: pkce().challenge }), ...extra }),
    );
    expectStatus(res, 302);
    return res.headers.location;
  }

  it('lists the languages in discovery', async () => {
    const res = await bed.t.http().get('/.well-known/openid-configuration');
    expect(res.body.ui_locales_supported).toEqual(['en', 'zh-CN']);
  });

  it('keeps the first supported ui_locales tag for every page of the request, over the browser', async () => {
    const { application } = await oauthSetup(bed.t.app);
    const agent = browser(bed.t.app);
    const login = await start(agent, application.clientId, { ui_locales: 'fr zh-Hans en' });
    const page = await agent.get(login).set('Accept-Language', 'en');
    expectStatus(page, 200);
    expectPageIn(page.text, 'zh-CN', '<title>登录</title>', '以继续使用 <strong>Demo App</strong>');
    // The request fixed the language: no switcher.
    expect(page.text).not.toContain('/oauth2/language');
    // The passkey script's messages come from the same catalog.
    expect(page.text).toContain('data-message-cancelled="未使用通行密钥');

    const fields = {
      request: hiddenInput(page.text, 'request'),
      csrf_token: hiddenInput(page.text, 'csrf_token'),
    };
    const wrong = await agent
      .post('/oauth2/login')
      .type('form')
      .send({ ...fields, username: 'alice', password: 'not it' });
    expectStatus(wrong, 401);
    expectPageIn(wrong.text, 'zh-CN', '用户名或密码错误。');

    const expired = await agent
      .post('/oauth2/login')
      .type('form')
      .send({ ...fields, csrf_token: 'forged', username: 'alice', password: PASSWORD });
    expectStatus(expired, 403);
    expectPageIn(expired.text, 'zh-CN', '表单已过期');

    const signedIn = await agent
      .post('/oauth2/login')
      .type('form')
      .send({ ...fields, username: 'alice', password: PASSWORD });
    expectStatus(signedIn, 303);
    const consent = await agent.get(signedIn.headers.location).set('Accept-Language', 'en');
    expectStatus(consent, 200);
    expectPageIn(consent.text, 'zh-CN', '授权访问', '>允许</button>', '拒绝', 'Demo App');
    // Each scope line is one message, so Chinese gets its own (full-width) punctuation.
    expect(consent.text).toMatch(/<code>read<\/code>：读取你的个人资料/);
  });

  it('answers ui_locales naming no supported language with the browser language', async () => {
    const { application } = await oauthSetup(bed.t.app);
    const agent = browser(bed.t.app);
    const login = await start(agent, application.clientId, { ui_locales: 'fr de' });
    const page = await agent.get(login).set('Accept-Language', 'zh-CN');
    expectPageIn(page.text, 'zh-CN', '用户名或邮箱');
    const english = await agent.get(login).set('Accept-Language', 'fr');
    expectPageIn(english.text, 'en', 'Username or email');
  });

  it('renders the error page of the authorization request in the ui_locales language', async () => {
    const res = await bed.t
      .http()
      .get(authorizePath({ client_id: 'nobody', response_type: 'code', ui_locales: 'zh-CN' }));
    expectStatus(res, 400);
    expectPageIn(res.text, 'zh-CN', '未知应用');
  });

  it('carries ui_locales through the upstream provider and back', async () => {
    const { application } = await oauthSetup(bed.t.app);
    await bed.addProvider();
    const agent = browser(bed.t.app);
    const login = await agent.get(
      await start(agent, application.clientId, { ui_locales: 'zh-CN' }),
    );
    expectPageIn(login.text, 'zh-CN', '使用 Corp SSO 登录');
    const href = /href="(\/api\/auth\/upstream\/corp\/start\?request=[^"]+)"/.exec(login.text);
    const trip = await agent.get(unescape(href![1]));
    expectStatus(trip, 302);
    const cookie = (trip.headers['set-cookie'] as unknown as string[])
      .map((line) => line.split(';')[0])
      .find((pair) => pair.startsWith('idsvc_upstream='));
    const callback = await visitUpstream(trip.headers.location, ISSUER);
    const back = await agent.get(callback).set('Accept-Language', 'en');
    expectStatus(back, 302);
    const consent = await agent.get(back.headers.location).set('Accept-Language', 'en');
    expectPageIn(consent.text, 'zh-CN', '授权访问');
    // The callback's own failure pages too (here a replayed answer).
    const replay = await bed.t
      .http()
      .get(callback)
      .set('Cookie', cookie ?? '')
      .set('Accept-Language', 'en');
    expectStatus(replay, 400);
    expectPageIn(replay.text, 'zh-CN', '登录响应已使用');
  });

  it('remembers the language picked with the switcher in a cookie, over Accept-Language', async () => {
    const { application } = await oauthSetup(bed.t.app);
    const agent = browser(bed.t.app);
    const login = await start(agent, application.clientId);
    const english = await agent.get(login).set('Accept-Language', 'en-US,en;q=0.9');
    expectPageIn(english.text, 'en', '<title>Sign in</title>');
    const link =
      /<a href="(\/oauth2\/language\?[^"]+)" hreflang="zh-CN" lang="zh-CN"\s*>简体中文<\/a/.exec(
        english.text,
      );
    expect(link).not.toBeNull();

    const switched = await agent.get(unescape(link![1]));
    expectStatus(switched, 303);
    expect(switched.headers.location).toBe(login);
    const [setCookie] = switched.headers['set-cookie'] as unknown as string[];
    expect(setCookie.split('; ').sort()).toEqual(
      expect.arrayContaining([
        'HttpOnly',
        'Max-Age=31536000',
        'Path=/',
        'SameSite=Lax',
        'ui_locale=zh-CN',
      ]),
    );
    expect(setCookie).not.toContain('Secure');

    const chinese = await agent.get(login).set('Accept-Language', 'en-US,en;q=0.9');
    expectPageIn(chinese.text, 'zh-CN', '<title>登录</title>', 'hreflang="en" lang="en"');
    // ui_locales still wins over the cookie.
    const fixed = await agent.get(await start(agent, application.clientId, { ui_locales: 'en' }));
    expectPageIn(fixed.text, 'en', '<title>Sign in</title>');
  });

  it('switches only to a supported language and back to a page of this site', async () => {
    const refused = [
      '/oauth2/language?locale=fr&return=%2Foauth2%2Flogout',
      '/oauth2/language?locale=zh-CN&return=%2F%2Fevil.example%2F',
      '/oauth2/language?locale=zh-CN&return=%2F%5Cevil.example',
      '/oauth2/language?locale=zh-CN&return=https%3A%2F%2Fevil.example%2F',
      '/oauth2/language?locale=zh-CN',
    ];
    for (const path of refused) {
      const res = await bed.t.http().get(path);
      expectStatus(res, 400);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it.each([
    ['zh-CN', 'zh-CN'],
    ['zh', 'zh-CN'],
    ['zh-Hans', 'zh-CN'],
    ['zh-SG', 'zh-CN'],
    ['zh-TW,zh;q=0.8', 'zh-CN'],
    ['zh-TW,en;q=0.5', 'en'],
    ['zh-Hant', 'en'],
    ['de, zh-cn;q=0.3, en;q=0.2', 'zh-CN'],
    ['zh-CN;q=0, en', 'en'],
    ['de', 'en'],
    ['', 'en'],
  ])('reads Accept-Language %p as %s', async (header, lang) => {
    const res = await bed.t.http().get('/oauth2/logout').set('Accept-Language', header);
    expectStatus(res, 200);
    expectPageIn(res.text, lang);
  });

  it("keeps the end-session request's ui_locales for the signed-out page after its form", async () => {
    const agent = browser(bed.t.app);
    const ask = await agent.get('/oauth2/logout?ui_locales=zh-CN').set('Accept-Language', 'en');
    expectStatus(ask, 200);
    expectPageIn(ask.text, 'zh-CN', '<title>退出登录</title>');
    const done = await agent
      .post('/oauth2/logout')
      .set('Accept-Language', 'en')
      .type('form')
      .send({
        csrf_token: hiddenInput(ask.text, 'csrf_token'),
        ui_locales: hiddenInput(ask.text, 'ui_locales'),
      });
    expectStatus(done, 200);
    expectPageIn(done.text, 'zh-CN', '<title>已退出登录</title>', '你已退出登录。');
    // Without ui_locales, the form carries none and the browser's language stays.
    const plain = await agent.get('/oauth2/logout').set('Accept-Language', 'en');
    expect(plain.text).not.toContain('name="ui_locales"');
  });

  it('translates the sign-up and password reset pages', async () => {
    const { application } = await createApplication(bed.t.app, {
      name: 'Demo App',
      authMethod: 'none',
      redirectUris: [REDIRECT_URI],
      signUpEnabled: true,
    });
    const agent = browser(bed.t.app);
    const login = await agent.get(
      await start(agent, application.clientId, { ui_locales: 'zh-CN' }),
    );
    const signUpHref = /<a href="(\/oauth2\/signup\?request=[^"]+)">注册<\/a>/.exec(login.text);
    expect(signUpHref).not.toBeNull();
    const signUp = await agent.get(unescape(signUpHref![1]));
    expectPageIn(signUp.text, 'zh-CN', '<title>注册账号</title>', '已有账号？');
    const refused = await agent
      .post('/oauth2/signup')
      .type('form')
      .send({
        request: hiddenInput(signUp.text, 'request'),
        csrf_token: hiddenInput(signUp.text, 'csrf_token'),
        username: 'x',
        email: 'x@example.org',
        password: 'violet kettle marching north',
      });
    expectStatus(refused, 400);
    expectPageIn(refused.text, 'zh-CN', '用户名须为 3 到 64 个字母');

    const forgotHref = /href="(\/oauth2\/forgot-password\?request=[^"]+)"/.exec(login.text);
    const forgot = await agent.get(unescape(forgotHref![1]));
    expectPageIn(forgot.text, 'zh-CN', '<title>重置密码</title>', '发送验证码');
    const reset = await bed.t
      .http()
      .get('/oauth2/reset-password?id=00000000-0000-4000-8000-000000000000')
      .set('Accept-Language', 'zh-CN');
    expectPageIn(reset.text, 'zh-CN', '15 分钟内有效', '再次输入新密码');
  });
});
