import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expectPageIn } from '../../../support/languages';
import { browser, expectStatus, type Agent } from '../../../support/oauth';
import { createTestApp, type TestApp } from '../../../support/test-app';

// The console's pages in the visitor's language (docs/languages.md): the switcher's cookie, then
// Accept-Language, then English, as /account; the words of the page's script come with the
// page as a JSON data block, and the message formatter from the installed package.

const FORMATTER_DIR = dirname(require.resolve('intl-messageformat'));
const FORMATTER_VERSION = (
  JSON.parse(readFileSync(join(FORMATTER_DIR, 'package.json'), 'utf8')) as { version: string }
).version;
const FORMATTER_URL = `/console/assets/intl-messageformat-${FORMATTER_VERSION}.js`;

/** Each console page with words of its own in either language. */
const PAGES = [
  {
    path: '/console',
    zh: [
      '<title>应用 · 控制台</title>',
      '登录控制台',
      '用户名或邮箱',
      '使用通行密钥登录',
      '创建应用',
    ],
    en: ['<title>Applications · Console</title>', 'Sign in to the console', 'Create application'],
  },
  {
    path: '/console/account',
    zh: ['<title>账号 · 控制台</title>', '通行密钥', '添加通行密钥', '绑定的账号'],
    en: ['<title>Account · Console</title>', 'Add a passkey', 'Connected accounts'],
  },
  {
    path: '/console/applications/1',
    zh: ['<title>应用 · 控制台</title>', '概览', 'API 访问', '审计日志', 'API 密钥', '创建密钥'],
    en: ['<title>Application · Console</title>', 'Overview', 'API access', 'Create key'],
  },
];

/** The data block of a page: its language, the formatter's URL and the script's words. */
function scriptWords(page: string): {
  locale: string;
  formatter: string;
  messages: { console: Record<string, Record<string, unknown>> };
} {
  const block = /<script type="application\/json" id="console-messages">([^<]*)<\/script>/.exec(
    page,
  );
  expect(block).not.toBeNull();
  return JSON.parse(block![1]) as ReturnType<typeof scriptWords>;
}

describe('Console pages: languages', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  /** The switcher's link, followed: the cookie is set for every later page of `agent`. */
  async function choose(agent: Agent, locale: string, back: string): Promise<void> {
    const res = await agent.get(
      `/oauth2/language?locale=${locale}&return=${encodeURIComponent(back)}`,
    );
    expectStatus(res, 303);
    expect(res.headers.location).toBe(back);
  }

  it.each(PAGES)('renders $path in Chinese from Accept-Language, with its words', async (page) => {
    const res = await browser(t.app).get(page.path).set('Accept-Language', 'zh-CN,en;q=0.5');
    expectStatus(res, 200);
    expectPageIn(res.text, 'zh-CN', ...page.zh, '用通行密钥确认', '退出登录', 'hreflang="en"');
    const words = scriptWords(res.text);
    expect(words.locale).toBe('zh-CN');
    expect(words.formatter).toBe(FORMATTER_URL);
    expect(words.messages.console.core.never).toBe('从未');
    expect(words.messages.console.keys.created).toBe('密钥“{name}”已创建。');
  });

  it.each(PAGES)('renders $path in the language of the switcher cookie', async (page) => {
    const agent = browser(t.app);
    await choose(agent, 'zh-CN', page.path);
    // The cookie wins over Accept-Language.
    const res = await agent.get(page.path).set('Accept-Language', 'en');
    expectStatus(res, 200);
    expectPageIn(res.text, 'zh-CN', ...page.zh);
    expect(scriptWords(res.text).locale).toBe('zh-CN');
  });

  it.each(PAGES)('renders $path in English by default', async (page) => {
    const res = await browser(t.app).get(page.path);
    expectStatus(res, 200);
    expectPageIn(res.text, 'en', ...page.en, 'Confirm with your passkey', 'hreflang="zh-CN"');
    const words = scriptWords(res.text);
    expect(words.locale).toBe('en');
    expect(words.messages.console.keys.created).toBe('Key "{name}" created.');
  });

  it('writes the data block so that no message can close the element', async () => {
    const res = await browser(t.app).get('/console');
    const block = /<script type="application\/json" id="console-messages">([^<]*)<\/script>/.exec(
      res.text,
    )![1];
    // Tags of the messages (<a>…</a>) are written \u003c.
    expect(block).toContain('\\u003ca>');
    expect(scriptWords(res.text).messages.console.apps.created).toBe('Created <a>{name}</a>.');
  });

  it.each(['abc', '0', '01', '1.5', '2147483648'])(
    'answers a path id that names no application (%s) in the visitor language',
    async (id) => {
      const res = await browser(t.app)
        .get(`/console/applications/${id}`)
        .set('Accept-Language', 'zh');
      expectStatus(res, 404);
      expectPageIn(res.text, 'zh-CN', '未找到', '没有这个应用。');
    },
  );

  it("serves intl-messageformat's browser build at its versioned path, cached for good", async () => {
    const res = await browser(t.app).get(FORMATTER_URL);
    expectStatus(res, 200);
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.text).toContain('export {');
    expect(res.text).toContain('IntlMessageFormat');
    expectStatus(await browser(t.app).get('/console/assets/intl-messageformat-0.0.0.js'), 404);
  });
});
