import type supertest from 'supertest';
import { ConsoleSessions } from '../../src/modules/console/console-session';
import type { SessionAuthMethod } from '../../src/modules/oauth/oauth-session.entity';
import { SESSION_COOKIE } from '../../src/modules/oauth/page-result';
import { SessionService } from '../../src/modules/oauth/session.service';
import type { TestApp } from './test-app';

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';

/** A signed-in console browser: every request carries the session cookie and the CSRF token. */
export interface ConsoleClient {
  userId: string;
  cookie: string;
  csrfToken: string;
  request: (method: Method, path: string) => supertest.Test;
}

/**
 * A console session for `userId` without the password round trip (scrypt is slow by design);
 * test/e2e/console-session.e2e-spec.ts covers the sign-in route itself.
 */
export async function consoleSession(
  t: TestApp,
  userId: string,
  method: SessionAuthMethod = 'password',
): Promise<ConsoleClient> {
  const { cookieValue } = await t.app.get(SessionService).create(userId, method);
  return consoleClient(t, userId, cookieValue);
}

/** A client for an existing session cookie value. */
export function consoleClient(t: TestApp, userId: string, cookieValue: string): ConsoleClient {
  const cookie = `${SESSION_COOKIE}=${cookieValue}`;
  const csrfToken = t.app.get(ConsoleSessions).csrfTokenFor(cookieValue);
  return {
    userId,
    cookie,
    csrfToken,
    request: (method, path) =>
      t.http()[method](path).set('Cookie', cookie).set('X-CSRF-Token', csrfToken),
  };
}

/** The session cookie's value in a response's Set-Cookie, or undefined. */
export function sessionCookieFrom(res: { headers: Record<string, unknown> }): string | undefined {
  const cookies = (res.headers['set-cookie'] as string[] | undefined) ?? [];
  const line = cookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  return line?.slice(SESSION_COOKIE.length + 1).split(';')[0];
}
