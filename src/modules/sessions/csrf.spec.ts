import type { AppConfig } from '../../config/app-config';
import { Csrf } from './csrf';
import type { BrowserContext } from './cookies';

const config = { sessionSecret: 'x'.repeat(40) } as AppConfig;
const browser = (csrfCookie?: string, sessionCookie?: string): BrowserContext => ({
  ip: '127.0.0.1',
  userAgent: '',
  csrfCookie,
  sessionCookie,
  secure: false,
});

describe(Csrf.name, () => {
  const csrf = new Csrf(config);

  describe('issue', () => {
    it('sets a signed nonce cookie when the browser has none of ours, and keeps one it has', () => {
      const first = csrf.issue(browser(), 'r1');
      expect(first.cookies).toEqual([
        { name: 'csrf', value: expect.stringMatching(/^[\w-]{43}\.[\w-]{43}$/) },
      ]);
      const cookie = first.cookies[0].value;
      expect(csrf.issue(browser(cookie), 'r1')).toEqual({ token: first.token, cookies: [] });
    });

    it('replaces a cookie value the client chose, even one shaped like ours', () => {
      for (const planted of ['chosen', `${'a'.repeat(43)}.${'b'.repeat(43)}`]) {
        expect(csrf.issue(browser(planted), 'r1').cookies).toHaveLength(1);
      }
    });
  });

  describe('issueAll', () => {
    it('binds every form of a page to one new cookie, each token to its purpose', () => {
      const { tokens, cookies } = csrf.issueAll(browser(undefined, 's1'), ['a', 'b']);
      expect(cookies).toHaveLength(1);
      const cookie = cookies[0].value;
      expect(csrf.verify(browser(cookie, 's1'), 'a', tokens.a)).toBe(true);
      expect(csrf.verify(browser(cookie, 's1'), 'b', tokens.b)).toBe(true);
      expect(csrf.verify(browser(cookie, 's1'), 'b', tokens.a)).toBe(false);
      expect(csrf.issueAll(browser(cookie, 's1'), ['a'])).toEqual({
        tokens: { a: tokens.a },
        cookies: [],
      });
    });
  });

  describe('verify', () => {
    const { token, cookies } = csrf.issue(browser(undefined, 's1'), 'r1');
    const cookie = cookies[0].value;

    it('accepts the issued token for the same cookie, session and purpose', () => {
      expect(csrf.verify(browser(cookie, 's1'), 'r1', token)).toBe(true);
    });

    it('refuses another purpose, another session, no cookie, a foreign key, or no token', () => {
      expect(csrf.verify(browser(cookie, 's1'), 'r2', token)).toBe(false);
      expect(csrf.verify(browser(cookie, 's2'), 'r1', token)).toBe(false);
      expect(csrf.verify(browser(cookie), 'r1', token)).toBe(false);
      expect(csrf.verify(browser(undefined, 's1'), 'r1', token)).toBe(false);
      const other = new Csrf({ sessionSecret: 'y'.repeat(40) } as AppConfig);
      expect(other.verify(browser(cookie, 's1'), 'r1', token)).toBe(false);
      expect(csrf.verify(browser(cookie, 's1'), 'r1', undefined)).toBe(false);
    });
  });

  describe('bindBrowser', () => {
    it('binds a purpose to the browser, not to its session; a form token is no binding', () => {
      const cookie = csrf.issue(browser(), 'r1').cookies[0].value;
      const other = csrf.issue(browser(), 'r1').cookies[0].value;
      const bound = csrf.bindBrowser(browser(cookie, 's1'), 'reset:1');
      expect(bound).toEqual(expect.stringMatching(/^[\w-]{43}$/));
      expect(csrf.isBoundBrowser(browser(cookie), 'reset:1', bound)).toBe(true);
      expect(csrf.isBoundBrowser(browser(cookie, 's2'), 'reset:1', bound)).toBe(true);
      expect(csrf.isBoundBrowser(browser(cookie), 'reset:2', bound)).toBe(false);
      expect(csrf.isBoundBrowser(browser(other), 'reset:1', bound)).toBe(false);
      expect(csrf.isBoundBrowser(browser(), 'reset:1', bound)).toBe(false);
      const token = csrf.issue(browser(cookie), 'reset:1').token;
      expect(csrf.isBoundBrowser(browser(cookie), 'reset:1', token)).toBe(false);
      expect(csrf.bindBrowser(browser('chosen'), 'reset:1')).toBeUndefined();
    });
  });
});
