import type { Response } from 'supertest';
import { PasswordCheckQueue } from '../../../src/modules/sessions/password-check-queue';
import {
  authorizeParams,
  authorizePath,
  browser,
  expectStatus,
  hiddenInput,
  login,
  oauthSetup,
  PASSWORD,
  pkce,
} from '../../support/oauth';
import { createTestApp, TestApp } from '../../support/test-app';

/**
 * docs/security.md, "Abuse cases", login page: attacks on the password sign-in that the other
 * login tests do not show.
 */

/** The value a response sets for `name`, or undefined. */
function cookieSet(res: Response, name: string): string | undefined {
  const lines = (res.headers['set-cookie'] as unknown as string[] | undefined) ?? [];
  const line = lines.find((l) => l.startsWith(`${name}=`));
  return line?.slice(name.length + 1).split(';')[0];
}

describe('login page abuse cases', () => {
  const start = new Date(Date.UTC(2030, 0, 1, 12, 0, 10));

  describe('default settings (no trusted proxy)', () => {
    let t: TestApp;
    let clientId: string;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());
    beforeEach(async () => {
      await t.truncate();
      t.clock.set(start);
      clientId = (await oauthSetup(t.app, { username: 'alice' })).application.clientId;
    });

    it('never adopts a session cookie the browser brought: the sign-in sets a new one and the planted value stays signed out', async () => {
      const planted = 'attacker-chosen-session-id';
      const cookies = new Map([['idsvc_session', planted]]);
      const header = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
      const take = (res: Response) => {
        for (const name of ['idsvc_session', 'idsvc_csrf']) {
          const value = cookieSet(res, name);
          if (value !== undefined) cookies.set(name, value);
        }
        return res;
      };
      const params = authorizeParams({ clientId, challenge: pkce().challenge });
      const begin = take(await t.http().get(authorizePath(params)).set('Cookie', header()));
      expectStatus(begin, 302);
      const page = take(await t.http().get(begin.headers.location).set('Cookie', header()));
      expectStatus(page, 200);
      const res = await t
        .http()
        .post('/oauth2/login')
        .set('Cookie', header())
        .type('form')
        .send({
          request: hiddenInput(page.text, 'request'),
          csrf_token: hiddenInput(page.text, 'csrf_token'),
          username: 'alice',
          password: PASSWORD,
        });
      expect(res.status).toBe(303);
      const issued = cookieSet(res, 'idsvc_session');
      expect(issued).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(issued).not.toBe(planted);

      const withPlanted = await t
        .http()
        .get('/api/console/session')
        .set('Cookie', `idsvc_session=${planted}`);
      expect(withPlanted.status).toBe(401);
      const withIssued = await t
        .http()
        .get('/api/console/session')
        .set('Cookie', `idsvc_session=${issued}`);
      expect(withIssued.status).toBe(200);
      expect(withIssued.body.user.username).toBe('alice');
    });

    it('counts failures by the connecting address when no proxy is trusted: a forged X-Forwarded-For buys no new guesses', async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) {
        const res = await login(browser(t.app).set('X-Forwarded-For', `203.0.113.${i + 1}`), {
          clientId,
          challenge: pkce().challenge,
          password: `wrong-${i}`,
        });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    });
  });

  describe('a full password check queue', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({
        env: { PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_QUEUE: '0' },
      });
    });
    afterAll(() => t.close());
    beforeEach(async () => {
      await t.truncate();
      t.clock.set(start);
      await oauthSetup(t.app, { username: 'alice' });
    });

    /** Takes the queue's only place until the returned function is called. */
    function holdQueue(): () => Promise<void> {
      let release!: () => void;
      const held = t.app
        .get(PasswordCheckQueue)
        .run('held-by-test', () => new Promise<void>((resolve) => (release = resolve)));
      return async () => {
        release();
        await held;
      };
    }

    it('hashes for an unknown account name as for a known one: both wait in the queue, so both find it full', async () => {
      const signIn = (login: string) =>
        t.http().post('/api/console/session').send({ login, password: 'wrong' });
      const release = holdQueue();
      let answers: number[];
      try {
        answers = [
          (await signIn('alice')).status,
          (await signIn('nobody')).status,
          (await signIn('nobody@example.org')).status,
        ];
      } finally {
        await release();
      }
      expect(answers).toEqual([503, 503, 503]);
      // With the queue free again, both are the same refusal.
      const known = await signIn('alice');
      const unknown = await signIn('nobody');
      expect([known.status, unknown.status]).toEqual([401, 401]);
      expect(unknown.body).toEqual(known.body);
    });
  });
});
