import { browser, login, oauthSetup, pkce } from '../../support/oauth';
import { createTestApp, TestApp } from '../../support/test-app';

const ATTACKER = '203.0.113.66';
const OWNER = '198.51.100.7';
const THROTTLED = 'Too many failed sign-in attempts';

/**
 * Login throttling (docs/oauth.md): failed sign-ins are limited per (account, address) and per
 * address, never per account alone, so guessing from one address cannot lock the owner out.
 * Addresses come from X-Forwarded-For behind one trusted proxy hop.
 */
describe('OAuth login throttling', () => {
  const start = new Date(Date.UTC(2030, 0, 1, 12, 0, 10));
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

  /** One sign-in attempt from `address` by a fresh browser; the response to the login POST. */
  const attempt = (address: string, username: string, password?: string) =>
    login(browser(t.app).set('X-Forwarded-For', address), {
      clientId,
      challenge: pkce().challenge,
      username,
      password,
    });

  it("never refuses the owner's correct password from another address after an attacker's failures", async () => {
    for (let i = 0; i < 5; i += 1) {
      expect((await attempt(ATTACKER, 'alice', `wrong-${i}`)).status).toBe(401);
    }
    const attacker = await attempt(ATTACKER, 'alice');
    expect(attacker.status).toBe(429);
    expect(attacker.text).toContain(THROTTLED);

    const owner = await attempt(OWNER, 'alice');
    expect(owner.status).toBe(303);
    expect(owner.headers.location).toMatch(/^\/oauth2\/consent/);
  });

  it('limits failed sign-ins per (account, address): 5, then 429 for that pair only', async () => {
    for (let i = 0; i < 5; i += 1) {
      expect((await attempt(ATTACKER, 'alice', `wrong-${i}`)).status).toBe(401);
    }
    const blocked = await attempt(ATTACKER, 'alice');
    expect(blocked.status).toBe(429);
    expect(blocked.text).toContain(THROTTLED);
    // Same address, another account name: its own budget (and the address's 20 are not used up).
    expect((await attempt(ATTACKER, 'mallory', 'wrong')).status).toBe(401);

    t.clock.advance(15 * 60_000); // the next 15-minute window
    expect((await attempt(ATTACKER, 'alice')).status).toBe(303);
  });

  it('limits failed sign-ins per address across account names: 20, then a 429 page', async () => {
    for (let i = 0; i < 20; i += 1) {
      expect((await attempt(ATTACKER, `nobody${i}`)).status).toBe(401);
    }
    const blocked = await attempt(ATTACKER, 'alice');
    expect(blocked.status).toBe(429);
    expect(blocked.text).toContain(THROTTLED);
    expect(blocked.headers['content-type']).toMatch(/^text\/html/);

    expect((await attempt(OWNER, 'alice')).status).toBe(303);
    t.clock.advance(15 * 60_000);
    expect((await attempt(ATTACKER, 'alice')).status).toBe(303);
    // Not a latency bound: 23 sign-in flows, each with a scrypt hash, on a loaded machine.
  }, 180_000);
});
