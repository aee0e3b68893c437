import { SIGN_IN_STARTS_PER_ADDRESS } from '../../../src/modules/passkeys/sign-in/passkey-sign-in.service';
import { CALLBACKS_PER_ADDRESS } from '../../../src/modules/interaction/upstream-sign-in/upstream-callback.service';
import {
  authorizeParams,
  authorizePath,
  browser,
  hiddenInput,
  oauthSetup,
  pkce,
} from '../../support/oauth';
import { useUpstreamBed } from '../../support/upstream-bed';

const ATTACKER = '203.0.113.66';
const OTHER = '198.51.100.7';

/**
 * Anonymous requests that write a row (docs/security.md, "Anonymous requests that keep state"):
 * past a per-address quota they answer 429 with Retry-After and write nothing more, while
 * another address still gets through. Addresses come from X-Forwarded-For (one trusted hop).
 */
describe('anonymous requests that keep state', () => {
  // Its beforeEach empties the tables, and with them the quotas' buckets.
  const bed = useUpstreamBed({ env: { TRUST_PROXY_HOPS: '1' } });

  const count = async (table: string): Promise<number> =>
    Number((await bed.t.dataSource.query(`SELECT count(*) AS n FROM ${table}`))[0].n);

  it(`POST /api/console/session/passkey/options: ${SIGN_IN_STARTS_PER_ADDRESS} per address, then 429 and no row`, async () => {
    const start = (address: string) =>
      bed.t.http().post('/api/console/session/passkey/options').set('X-Forwarded-For', address);
    for (let i = 0; i < SIGN_IN_STARTS_PER_ADDRESS; i += 1) {
      expect((await start(ATTACKER)).status).toBe(200);
    }
    expect(await count('passkey_ceremonies')).toBe(SIGN_IN_STARTS_PER_ADDRESS);

    for (let i = 0; i < 3; i += 1) {
      const refused = await start(ATTACKER);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        error: 'rate_limited',
        message:
          'Too many passkey sign-ins started from this address. Wait a few minutes and try again.',
        retry_after: expect.any(Number),
      });
      expect(refused.headers['retry-after']).toBe(String(refused.body.retry_after));
    }
    expect(await count('passkey_ceremonies')).toBe(SIGN_IN_STARTS_PER_ADDRESS);

    expect((await start(OTHER)).status).toBe(200);
    expect(await count('passkey_ceremonies')).toBe(SIGN_IN_STARTS_PER_ADDRESS + 1);
  });

  it('POST /api/console/session/passkey/options: requests the console guard refuses are not counted', async () => {
    const start = () =>
      bed.t.http().post('/api/console/session/passkey/options').set('X-Forwarded-For', ATTACKER);
    // The Origin check runs before the quota: these never reach it, however many they are.
    for (let i = 0; i < SIGN_IN_STARTS_PER_ADDRESS + 1; i += 1) {
      const foreign = await start().set('Origin', 'https://evil.example');
      expect({ status: foreign.status, error: foreign.body.error }).toEqual({
        status: 403,
        error: 'csrf_failed',
      });
    }
    expect((await start()).status).toBe(200);
  });

  it(`POST /oauth2/login/passkey/options: the console's ${SIGN_IN_STARTS_PER_ADDRESS} per address, then a 429 page and no row`, async () => {
    const { application } = await oauthSetup(bed.t.app);
    /** The login page's passkey options request of a browser at `address`. */
    async function loginPageAt(address: string) {
      const agent = browser(bed.t.app).set('X-Forwarded-For', address);
      const authorize = await agent.get(
        authorizePath(
          authorizeParams({ clientId: application.clientId, challenge: pkce().challenge }),
        ),
      );
      const page = await agent.get(authorize.headers.location);
      const fields = {
        request: hiddenInput(page.text, 'request'),
        csrf_token: hiddenInput(page.text, 'csrf_token'),
      };
      return () => agent.post('/oauth2/login/passkey/options').type('form').send(fields);
    }
    const start = await loginPageAt(ATTACKER);

    // Refused for a foreign Origin before the quota: these are never counted.
    for (let i = 0; i < SIGN_IN_STARTS_PER_ADDRESS + 1; i += 1) {
      expect((await start().set('Origin', 'https://evil.example')).status).toBe(403);
    }
    // One bucket per address for every passkey sign-in start: the console's count here too.
    for (let i = 0; i < SIGN_IN_STARTS_PER_ADDRESS - 1; i += 1) {
      const console = bed.t.http().post('/api/console/session/passkey/options');
      expect((await console.set('X-Forwarded-For', ATTACKER)).status).toBe(200);
    }
    expect((await start()).status).toBe(200);
    expect(await count('passkey_ceremonies')).toBe(SIGN_IN_STARTS_PER_ADDRESS);

    const refused = await start();
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^text\/html/);
    expect(refused.text).toContain('Too many passkey sign-ins started from this address');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await count('passkey_ceremonies')).toBe(SIGN_IN_STARTS_PER_ADDRESS);

    expect((await (await loginPageAt(OTHER))()).status).toBe(200);
    expect(await count('passkey_ceremonies')).toBe(SIGN_IN_STARTS_PER_ADDRESS + 1);
  });

  it(`GET /api/auth/upstream/{id}/callback: ${CALLBACKS_PER_ADDRESS} spent states per address, then 429 and no row`, async () => {
    const { application } = await oauthSetup(bed.t.app);
    await bed.addProvider();

    /** A browser at `address` with the login page's link to start at the provider. */
    async function startLinkFor(address: string) {
      const agent = browser(bed.t.app).set('X-Forwarded-For', address);
      const authorize = await agent.get(
        authorizePath(
          authorizeParams({ clientId: application.clientId, challenge: pkce().challenge }),
        ),
      );
      const page = await agent.get(authorize.headers.location);
      const link = /href="(\/api\/auth\/upstream\/corp\/start\?request=[^"]+)"/.exec(
        page.text,
      )?.[1];
      if (!link) throw new Error('no start link on the login page');
      return { agent, link: link.replace(/&amp;/g, '&') };
    }

    /**
     * One anonymous attempt: start (sealed attempt cookie, no row), then the callback with the
     * attempt's state and a code the provider never issued (the state is spent, then the
     * provider refuses the code).
     */
    async function attempt(browserAt: Awaited<ReturnType<typeof startLinkFor>>) {
      const start = await browserAt.agent.get(browserAt.link);
      expect(start.status).toBe(302);
      const state = new URL(start.headers.location).searchParams.get('state')!;
      return browserAt.agent.get(
        `/api/auth/upstream/corp/callback?state=${encodeURIComponent(state)}&code=made-up`,
      );
    }

    const attacker = await startLinkFor(ATTACKER);
    for (let i = 0; i < CALLBACKS_PER_ADDRESS; i += 1) {
      expect((await attempt(attacker)).status).not.toBe(429);
    }
    const spent = await count('oauth_spent_authorization_requests');
    expect(spent).toBe(CALLBACKS_PER_ADDRESS);

    for (let i = 0; i < 3; i += 1) {
      const refused = await attempt(attacker);
      expect(refused.status).toBe(429);
      expect(refused.headers['content-type']).toMatch(/^text\/html/);
      expect(refused.text).toContain('Too many sign-ins from this address');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(await count('oauth_spent_authorization_requests')).toBe(spent);

    // The answer's state is checked before the quota: a wrong one is its own 400 page, not 429.
    await attacker.agent.get(attacker.link);
    const forged = await attacker.agent.get('/api/auth/upstream/corp/callback?state=forged&code=x');
    expect(forged.status).toBe(400);
    expect(forged.text).toContain('does not belong to the sign-in started in this browser');

    const other = await attempt(await startLinkFor(OTHER));
    expect(other.status).not.toBe(429);
    expect(await count('oauth_spent_authorization_requests')).toBe(spent + 1);
  });
});
