import { createUser } from '../../../factories';
import { accountBrowser, postAccountForm } from '../../../support/account';
import { expectMailIn, expectPageIn } from '../../../support/languages';
import { browser, expectStatus, PASSWORD, type Agent } from '../../../support/oauth';
import { codeOf } from '../../../support/smtp-server';
import { useMailboxBed } from '../../../support/mailbox-bed';

// The account page's languages (docs/languages.md): no authorization request, so the switcher's
// cookie, then Accept-Language, then English; its dates with Intl, its script's words from the
// catalog, and the verification email in the language of the page that sent it.

/** A date and time as Chinese writes it (Intl, zh-CN, UTC). */
const CHINESE_DATE = /<time datetime="[^"]+">\d{4}年\d{1,2}月\d{1,2}日 UTC \d{2}:\d{2}<\/time>/;

describe('Account page: languages', () => {
  const bed = useMailboxBed();
  beforeEach(async () => {
    await createUser(bed.t.app, {
      username: 'alice',
      email: 'alice@example.org',
      password: PASSWORD,
      emailVerified: true,
    });
  });

  /** The switcher's link, followed: the cookie is set for every later page of `agent`. */
  async function choose(agent: Agent, locale: string, back = '/account'): Promise<void> {
    const res = await agent.get(
      `/oauth2/language?locale=${locale}&return=${encodeURIComponent(back)}`,
    );
    expectStatus(res, 303);
  }

  it('renders the sign-in page from Accept-Language, with the switcher', async () => {
    const page = await browser(bed.t.app).get('/account/login').set('Accept-Language', 'zh-CN');
    expectStatus(page, 200);
    expectPageIn(
      page.text,
      'zh-CN',
      '<title>登录你的账号</title>',
      '用户名或邮箱',
      '忘记密码？',
      '使用通行密钥登录',
      'hreflang="en"',
    );
    const english = await browser(bed.t.app).get('/account/login');
    expectPageIn(english.text, 'en', '<title>Sign in to your account</title>', 'Forgot password?');
  });

  it('renders the account page in the language of the switcher cookie, dates with Intl', async () => {
    const agent = await accountBrowser(bed.t.app);
    await choose(agent, 'zh-CN');
    // The cookie wins over Accept-Language.
    const page = await agent.get('/account').set('Accept-Language', 'en');
    expectStatus(page, 200);
    expectPageIn(
      page.text,
      'zh-CN',
      '<title>我的账号</title>',
      '个人资料',
      '邮箱',
      '>已验证<',
      '通行密钥',
      '绑定的账号',
      '你授权的应用',
      '最近的登录',
      '>密码<',
      '用你的通行密钥确认',
      '退出登录',
    );
    expect(page.text).toMatch(CHINESE_DATE);
    // The script's words, rendered from the catalog.
    expect(page.text).toContain('data-message-recent-sign-in="请退出登录，再用密码重新登录');
    expect(page.text).toContain('data-message-confirm-add="为你的账号添加通行密钥“{name}”。"');

    const saved = await agent.get('/account?done=profile');
    expectPageIn(saved.text, 'zh-CN', '你的个人资料已保存。');
    const refused = await postAccountForm(agent, '/account/profile', {
      nickname: 'Alice',
      avatar: 'ftp://example.org/a.png',
    });
    expectStatus(refused, 400);
    expectPageIn(
      refused.text,
      'zh-CN',
      '头像必须是 https:// URL（仅 localhost 可用 http://），最多 2000 个字符。',
    );
    const english = await (await accountBrowser(bed.t.app)).get('/account');
    expectPageIn(english.text, 'en', '<title>Your account</title>', 'Recent sign-ins');
    expect(english.text).toMatch(/<time datetime="[^"]+">\w{3} \d{1,2}, \d{4}, \d{2}:\d{2} UTC/);
  });

  it('refuses in the page language and emails the verification code in it', async () => {
    const agent = await accountBrowser(bed.t.app);
    await choose(agent, 'zh-CN');
    const refused = await postAccountForm(agent, '/account/emails/code', {
      email: 'new@example.org',
      current_password: 'not the password',
    });
    expectStatus(refused, 401);
    expectPageIn(refused.text, 'zh-CN', '当前密码不正确。');
    const weak = await postAccountForm(agent, '/account/password', {
      current_password: PASSWORD,
      new_password: 'password1',
      repeat_password: 'password1',
    });
    expectStatus(weak, 400);
    expectPageIn(weak.text, 'zh-CN', '这个密码太容易被猜到（这是一个常用密码）。');

    const sent = await postAccountForm(agent, '/account/emails/code', {
      email: 'new@example.org',
      current_password: PASSWORD,
    });
    expectStatus(sent, 303);
    const mail = await bed.mailbox.next('new@example.org');
    expectMailIn(
      mail,
      'zh-CN',
      `${codeOf(mail)} 是你在 127.0.0.1:3000 验证邮箱的验证码`,
      '有人请求把这个邮箱添加到 127.0.0.1:3000 的一个账号',
      '验证我的邮箱',
    );
    const form = await agent.get(sent.headers.location);
    expectPageIn(
      form.text,
      'zh-CN',
      '<title>验证你的邮箱</title>',
      '15 分钟内有效',
      '返回你的账号',
    );
  });
});
