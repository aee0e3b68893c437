import type { Request } from 'express';
import { sessionCookieOf } from './console-session';

const withCookie = (cookie?: string): Request => ({ headers: { cookie } }) as unknown as Request;

describe('console session helpers', () => {
  describe(sessionCookieOf.name, () => {
    it('reads idsvc_session among other cookies', () => {
      expect(sessionCookieOf(withCookie('a=1; idsvc_session=abc_-9; b=2'), false)).toBe('abc_-9');
      expect(sessionCookieOf(withCookie('idsvc_session=xyz'), false)).toBe('xyz');
    });

    it('is undefined without the cookie, for an empty value, or a look-alike name', () => {
      expect(sessionCookieOf(withCookie(), false)).toBeUndefined();
      expect(sessionCookieOf(withCookie('idsvc_session='), false)).toBeUndefined();
      expect(
        sessionCookieOf(withCookie('my_idsvc_session=1; idsvc_sessionx=2'), false),
      ).toBeUndefined();
    });

    it('reads only __Host-idsvc_session behind https, never the unprefixed name', () => {
      expect(sessionCookieOf(withCookie('a=1; __Host-idsvc_session=abc'), true)).toBe('abc');
      expect(sessionCookieOf(withCookie('idsvc_session=planted'), true)).toBeUndefined();
      expect(sessionCookieOf(withCookie('__Host-idsvc_session=x'), false)).toBeUndefined();
    });
  });
});
