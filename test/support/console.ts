import type supertest from 'supertest';
import { DataSource } from 'typeorm';
import {
  ConsoleMember,
  type MemberRole,
} from '../../src/modules/console/roles/console-member.entity';
import { ConsoleSessions } from '../../src/modules/console/session/console-session';
import type { SessionAuthMethod } from '../../src/modules/sessions/oauth-session.entity';
import { cookieName } from '../../src/modules/sessions/cookies';
import { SessionService } from '../../src/modules/sessions/session.service';
import { createApiKey, createUser } from '../factories';
import { relate } from '../factories/app-users';
import type { TestApp } from './test-app';

// The tests' service is http://: cookie names without the __Host- prefix.
const SESSION_COOKIE = cookieName('session', false);

/** Where the tests' direct sessions say they come from (their sign_ins row). */
export const TEST_SIGN_IN_CLIENT = { ip: '127.0.0.1', userAgent: 'e2e test' };

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
 * test/e2e/console/session/console-session.e2e-spec.ts covers the sign-in route itself.
 */
export async function consoleSession(
  t: TestApp,
  userId: string,
  method: SessionAuthMethod = 'password',
): Promise<ConsoleClient> {
  const { cookieValue } = await t.app
    .get(SessionService)
    .create(userId, method, TEST_SIGN_IN_CLIENT);
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

/**
 * Gives `userId` a console role directly in console_members (the console's own route, with
 * its passkey confirmation, is tested in console-members.e2e-spec.ts).
 */
export async function grantConsoleRole(
  t: TestApp,
  applicationId: number,
  userId: string,
  role: MemberRole,
  grantedBy: string | null = null,
): Promise<void> {
  const now = new Date();
  await t.app
    .get(DataSource)
    .getRepository(ConsoleMember)
    .insert({ applicationId, userId, role, grantedBy, createdAt: now, updatedAt: now });
}

/** The people of the role tests: one of each role in one application, and a stranger. */
export interface ConsoleWorld {
  applicationId: number;
  clientSecret: string;
  owner: ConsoleClient;
  admin: ConsoleClient;
  viewer: ConsoleClient;
  /** Related in group t3: an end user, no console access. */
  member: ConsoleClient;
  /** Owns another application only. */
  stranger: ConsoleClient;
  otherApplicationId: number;
  keyId: number;
  key: string;
}

/**
 * An application created through the console by `owner` (so the owner relation is the real
 * one), with an admin, a viewer and a t3 member related to it, an API key, and a stranger who
 * owns another application.
 */
export async function consoleWorld(t: TestApp): Promise<ConsoleWorld> {
  const people = await Promise.all(
    ['owner', 'admin', 'viewer', 'member', 'stranger'].map((name) =>
      createUser(t.app, { username: name, email: `${name}@example.org` }),
    ),
  );
  const [owner, admin, viewer, member, stranger] = await Promise.all(
    people.map((user) => consoleSession(t, user.id)),
  );
  const created = await owner
    .request('post', '/api/console/applications')
    .send({ name: 'Main App', redirectUris: ['https://client.example/cb'] });
  if (created.status !== 201) throw new Error(`create: ${created.status} ${created.text}`);
  const applicationId = (created.body as { id: number }).id;
  const other = await stranger.request('post', '/api/console/applications').send({ name: 'Other' });
  // Console roles are console_members rows; the groups are only the application's data.
  await relate(t, applicationId, admin.userId, { group: 'admin' });
  await relate(t, applicationId, viewer.userId, { group: 'viewer' });
  await grantConsoleRole(t, applicationId, admin.userId, 'admin', owner.userId);
  await grantConsoleRole(t, applicationId, viewer.userId, 'viewer', owner.userId);
  await relate(t, applicationId, member.userId, { group: 't3' });
  const { apiKey, plaintext } = await createApiKey(t.app, applicationId, ['user:read'], 'first');
  return {
    applicationId,
    clientSecret: (created.body as { clientSecret: string }).clientSecret,
    owner,
    admin,
    viewer,
    member,
    stranger,
    otherApplicationId: (other.body as { id: number }).id,
    keyId: apiKey.id,
    key: plaintext,
  };
}
