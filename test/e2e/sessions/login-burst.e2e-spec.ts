import { randomUUID } from 'node:crypto';
import { PasswordCheckQueue } from '../../../src/modules/sessions/password-check-queue';
import { createUser } from '../../factories';
import { FixedClock } from '../../support/fixed-clock';
import { browser, oauthSetup, openLogin, pkce, PASSWORD } from '../../support/oauth';
import { RedisServer } from '../../support/redis-server';
import { createTestApp, TestApp } from '../../support/test-app';
import { usingRealServices } from '../../support/test-env';

const ATTACKER = '203.0.113.66';
const OWNER = '198.51.100.7';
const BURST = 30;
/** MAX_FAILURES_PER_ACCOUNT_AND_ADDRESS (docs/oauth.md, login throttling). */
const LIMIT = 5;
const THROTTLED = 'Too many failed sign-in attempts';

/** How many answers had each status. */
function tally(responses: { status: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of responses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/**
 * A burst of password guesses (docs/security.md, "Password sign-in"): every attempt takes a
 * failure slot atomically before its password is hashed, so of simultaneous guesses for one
 * account from one address exactly the limit are evaluated, on one instance or several; the
 * hashing queue is bounded and answers at once when full.
 */
describe('login burst', () => {
  const start = new Date(Date.UTC(2030, 0, 1, 12, 0, 10));

  describe('one instance', () => {
    let t: TestApp;
    let clientId: string;

    beforeAll(async () => {
      t = await createTestApp({ env: { TRUST_PROXY_HOPS: '1' } });
    });
    afterAll(() => t.close());
    beforeEach(async () => {
      await t.truncate(); // also empties the throttle's buckets
      t.clock.set(start);
      const { application } = await oauthSetup(t.app, { username: 'alice' });
      clientId = application.clientId;
    });

    const loginForm = (address: string, password: string) =>
      openLogin(browser(t.app).set('X-Forwarded-For', address), {
        clientId,
        challenge: pkce().challenge,
        username: 'alice',
        password,
      }).then((submit) => () => submit().set('X-Forwarded-For', address));

    const consoleSignIn = (address: string, password: string) =>
      t
        .http()
        .post('/api/console/session')
        .set('X-Forwarded-For', address)
        .send({ login: 'alice', password });

    it(`POST /oauth2/login: of ${BURST} simultaneous wrong passwords exactly ${LIMIT} are evaluated, the owner still signs in`, async () => {
      const forms = await Promise.all(
        Array.from({ length: BURST }, (_, i) => loginForm(ATTACKER, `wrong-${i}`)),
      );
      const owner = await loginForm(OWNER, PASSWORD);
      const [ownerAnswer, ...answers] = await Promise.all([owner(), ...forms.map((f) => f())]);

      expect(tally(answers)).toEqual({ 401: LIMIT, 429: BURST - LIMIT });
      for (const refused of answers.filter((res) => res.status === 429)) {
        expect(refused.text).toContain(THROTTLED);
        expect(refused.headers['content-type']).toMatch(/^text\/html/);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      }
      expect(ownerAnswer.status).toBe(303);
      expect(ownerAnswer.headers.location).toMatch(/^\/oauth2\/consent/);
    });

    it(`POST /api/console/session: of ${BURST} simultaneous wrong passwords exactly ${LIMIT} are evaluated, the owner still signs in`, async () => {
      const answers = await Promise.all([
        consoleSignIn(OWNER, PASSWORD),
        ...Array.from({ length: BURST }, (_, i) => consoleSignIn(ATTACKER, `wrong-${i}`)),
      ]);
      const [ownerAnswer, ...burst] = answers;
      expect(tally(burst)).toEqual({ 401: LIMIT, 429: BURST - LIMIT });
      for (const refused of burst.filter((res) => res.status === 429)) {
        expect(refused.body).toEqual({
          error: 'rate_limited',
          message: 'Too many failed sign-in attempts. Wait a few minutes and try again.',
          retry_after: expect.any(Number),
        });
        expect(refused.headers['retry-after']).toBe(String(refused.body.retry_after));
      }
      expect(ownerAnswer.status).toBe(200);
    });

    it('gives the slot back on a correct password: successes never use up the failure budget', async () => {
      for (let i = 0; i < LIMIT - 1; i += 1) {
        expect((await consoleSignIn(ATTACKER, `wrong-${i}`)).status).toBe(401);
      }
      for (let i = 0; i < 3; i += 1)
        expect((await consoleSignIn(ATTACKER, PASSWORD)).status).toBe(200);
      expect((await consoleSignIn(ATTACKER, 'wrong-last')).status).toBe(401);
      expect((await consoleSignIn(ATTACKER, PASSWORD)).status).toBe(429);
    });
  });

  describe('a full password check queue', () => {
    let t: TestApp;
    let clientId: string;

    // One check at a time and none waiting: while the test holds the only place, every
    // sign-in finds the queue full, deterministically.
    beforeAll(async () => {
      t = await createTestApp({
        env: { TRUST_PROXY_HOPS: '1', PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_QUEUE: '0' },
      });
    });
    afterAll(() => t.close());
    beforeEach(async () => {
      await t.truncate();
      t.clock.set(start);
      const { application } = await oauthSetup(t.app, { username: 'alice' });
      clientId = application.clientId;
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

    it('answers at once with 503 and Retry-After on both routes, and counts nothing', async () => {
      const submit = await openLogin(browser(t.app).set('X-Forwarded-For', ATTACKER), {
        clientId,
        challenge: pkce().challenge,
        password: 'wrong',
      });
      const consoleSignIn = (password: string) =>
        t
          .http()
          .post('/api/console/session')
          .set('X-Forwarded-For', ATTACKER)
          .send({ login: 'alice', password });

      const release = holdQueue();
      try {
        const page = await submit().set('X-Forwarded-For', ATTACKER);
        expect(page.status).toBe(503);
        expect(page.headers['retry-after']).toBe('1');
        expect(page.headers['content-type']).toMatch(/^text\/html/);
        expect(page.text).toContain('Too many sign-ins at this moment');
        for (let i = 0; i < LIMIT + 1; i += 1) {
          const busy = await consoleSignIn(`wrong-${i}`);
          expect(busy.status).toBe(503);
          expect(busy.headers['retry-after']).toBe('1');
          expect(busy.body).toEqual({
            error: 'service_unavailable',
            message: 'Too many sign-ins at this moment. Try again in a moment.',
            retry_after: 1,
          });
        }
      } finally {
        await release();
      }
      // None of the refused attempts took a failure slot: the whole budget is left.
      for (let i = 0; i < LIMIT; i += 1)
        expect((await consoleSignIn(`wrong-${i}`)).status).toBe(401);
      expect((await consoleSignIn(PASSWORD)).status).toBe(429);
    });
  });

  describe('two instances on one Redis', () => {
    const clock = new FixedClock(start);
    let redis: RedisServer | undefined;
    let one: TestApp;
    let two: TestApp;

    beforeAll(async () => {
      if (!process.env.REDIS_URL) redis = await RedisServer.start();
      const env = {
        TRUST_PROXY_HOPS: '1',
        // Both instances must use the same keys; unique per run so parallel runs never collide.
        RATE_LIMIT_KEY_PREFIX: `idsvc-test:${randomUUID()}:`,
        ...(redis ? { REDIS_URL: redis.url } : {}),
      };
      one = await createTestApp({ env, clock });
      two = await createTestApp({ env, clock });
    });
    afterAll(async () => {
      await one?.truncate(); // also deletes this run's Redis keys
      await one?.close();
      await two?.close();
      await redis?.kill();
    });

    it(`evaluates exactly ${LIMIT} of ${BURST} simultaneous wrong passwords spread over both`, async () => {
      await one.truncate();
      await createUser(one.app, { username: 'alice', password: PASSWORD });
      if (!usingRealServices()) {
        // Two embedded databases: the same account on each.
        await two.truncate();
        await createUser(two.app, { username: 'alice', password: PASSWORD });
      }
      const answers = await Promise.all(
        Array.from({ length: BURST }, (_, i) =>
          (i % 2 === 0 ? one : two)
            .http()
            .post('/api/console/session')
            .set('X-Forwarded-For', ATTACKER)
            .send({ login: 'alice', password: `wrong-${i}` }),
        ),
      );
      expect(tally(answers)).toEqual({ 401: LIMIT, 429: BURST - LIMIT });
    });
  });
});
