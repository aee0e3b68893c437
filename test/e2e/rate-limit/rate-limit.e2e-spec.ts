import { createApiKey, createApplication } from '../../factories';
import { FixedClock } from '../../support/fixed-clock';
import { createTestApp, TestApp } from '../../support/test-app';

/** docs/contract/README.md#rate-limits with a small limit: one bucket per application, exact headers, 429, reset. */
describe('rate limit of the application API', () => {
  // 12:00:10 UTC: the window ends at 12:01:00, 50 s later.
  const start = new Date(Date.UTC(2030, 0, 1, 12, 0, 10));
  const resetAt = String(Date.UTC(2030, 0, 1, 12, 1, 0) / 1000);
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      clock: new FixedClock(start),
      env: { RATE_LIMIT_PER_MINUTE: '5', RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '3' },
    });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.truncate();
    t.clock.set(start);
  });

  async function appWithKeys(name: string, keys = 1): Promise<{ id: number; keys: string[] }> {
    const { application } = await createApplication(t.app, { name });
    const plaintexts: string[] = [];
    for (let i = 0; i < keys; i += 1) {
      plaintexts.push((await createApiKey(t.app, application.id, [], `key ${i}`)).plaintext);
    }
    return { id: application.id, keys: plaintexts };
  }

  const me = (key: string) => t.http().get('/api/v1/app/me').set('Authorization', `Bearer ${key}`);
  const limitHeaders = (res: { headers: Record<string, string> }) => ({
    limit: res.headers['x-ratelimit-limit'],
    remaining: res.headers['x-ratelimit-remaining'],
    reset: res.headers['x-ratelimit-reset'],
  });

  it('shares one bucket between the keys of an application, with exact decreasing headers', async () => {
    const { keys } = await appWithKeys('Shared', 2);
    const seen = [];
    for (let i = 0; i < 5; i += 1) {
      const res = await me(keys[i % 2]);
      expect(res.status).toBe(200);
      seen.push(limitHeaders(res));
    }
    expect(seen).toEqual(
      ['4', '3', '2', '1', '0'].map((remaining) => ({ limit: '5', remaining, reset: resetAt })),
    );
    expect((await me(keys[0])).status).toBe(429);
    expect((await me(keys[1])).status).toBe(429);
  });

  it('keeps the bucket of another application independent', async () => {
    const first = await appWithKeys('First');
    const second = await appWithKeys('Second');
    for (let i = 0; i < 5; i += 1) expect((await me(first.keys[0])).status).toBe(200);
    expect((await me(first.keys[0])).status).toBe(429);

    const res = await me(second.keys[0]);
    expect(res.status).toBe(200);
    expect(limitHeaders(res)).toEqual({ limit: '5', remaining: '4', reset: resetAt });
  });

  it('answers over the limit with the exact 429 body and headers', async () => {
    const { keys } = await appWithKeys('Busy');
    for (let i = 0; i < 5; i += 1) await me(keys[0]);
    t.clock.advance(20_000); // 12:00:30, 30 s before the reset

    const res = await me(keys[0]);
    expect(res.status).toBe(429);
    expect(res.body).toEqual({
      error: 'rate_limited',
      message: 'Rate limit of the application exceeded',
      retry_after: 30,
    });
    expect(res.headers['retry-after']).toBe('30');
    expect(limitHeaders(res)).toEqual({ limit: '5', remaining: '0', reset: resetAt });
  });

  it('restores service when the window resets', async () => {
    const { keys } = await appWithKeys('Patient');
    for (let i = 0; i < 6; i += 1) await me(keys[0]);
    t.clock.set(new Date(Date.UTC(2030, 0, 1, 12, 1, 0)));

    const res = await me(keys[0]);
    expect(res.status).toBe(200);
    expect(limitHeaders(res)).toEqual({
      limit: '5',
      remaining: '4',
      reset: String(Date.UTC(2030, 0, 1, 12, 2, 0) / 1000),
    });
  });

  it('uses the per-application limit when one is configured', async () => {
    const { id, keys } = await appWithKeys('Small');
    await t.dataSource.query('UPDATE applications SET rate_limit_per_minute = 2 WHERE id = $1', [
      id,
    ]);
    expect(limitHeaders(await me(keys[0]))).toEqual({ limit: '2', remaining: '1', reset: resetAt });
    expect(limitHeaders(await me(keys[0]))).toEqual({ limit: '2', remaining: '0', reset: resetAt });
    expect((await me(keys[0])).status).toBe(429);
  });

  it('limits failed authentication per client address without charging any application', async () => {
    const { keys } = await appWithKeys('Target');
    const missing = await t.http().get('/api/v1/app/me');
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({
      error: 'missing_api_key',
      message: 'The Authorization header with an API key is missing',
    });
    expect(missing.headers['x-ratelimit-limit']).toBeUndefined();
    expect((await me('svc_live_guess')).status).toBe(401);

    const valid = await me(keys[0]);
    expect(limitHeaders(valid)).toEqual({ limit: '5', remaining: '4', reset: resetAt });
    const third = await me('svc_live_guess2');
    expect(third.body).toEqual({ error: 'invalid_api_key', message: 'The API key is invalid' });

    // Budget of 3 used up: further failures get 429 with the address bucket's headers.
    const blocked = await me('svc_live_guess3');
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({
      error: 'rate_limited',
      message: 'Too many requests with a missing or invalid API key from this address',
      retry_after: 50,
    });
    expect(blocked.headers['retry-after']).toBe('50');
    expect(limitHeaders(blocked)).toEqual({ limit: '3', remaining: '0', reset: resetAt });

    t.clock.set(new Date(Date.UTC(2030, 0, 1, 12, 1, 0)));
    expect((await me('svc_live_guess4')).status).toBe(401);
  });

  it('never refuses a valid key because of failures from the same address', async () => {
    const { keys } = await appWithKeys('Behind one NAT');
    for (let i = 0; i < 5; i += 1) await me(`svc_live_guess${i}`);
    expect((await me('svc_live_guess')).status).toBe(429);

    const valid = await me(keys[0]);
    expect(valid.status).toBe(200);
    expect(limitHeaders(valid)).toEqual({ limit: '5', remaining: '4', reset: resetAt });
  });

  it('charges a 403 insufficient_scope request and sends the headers with it', async () => {
    const { keys } = await appWithKeys('Scopeless');
    const res = await t.http().get('/api/v1/app/stats').set('Authorization', `Bearer ${keys[0]}`);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('insufficient_scope');
    expect(limitHeaders(res)).toEqual({ limit: '5', remaining: '4', reset: resetAt });
    expect(limitHeaders(await me(keys[0]))).toEqual({ limit: '5', remaining: '3', reset: resetAt });
  });

  it('leaves public routes alone', async () => {
    const res = await t.http().get('/health/live');
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  });
});

/** The address bucket at the default budget (60 failed authentications per address and minute). */
describe('failed-authentication bucket of a shared address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ clock: new FixedClock(new Date(Date.UTC(2030, 0, 1, 12, 0, 10))) });
  });
  afterAll(() => t.close());

  it('answers bad keys beyond the budget 429 with the headers, and a valid key 200', async () => {
    await t.truncate();
    const { application } = await createApplication(t.app);
    const { plaintext } = await createApiKey(t.app, application.id);
    const me = (key: string) =>
      t.http().get('/api/v1/app/me').set('Authorization', `Bearer ${key}`);

    const statuses: number[] = [];
    for (let i = 0; i < 61; i += 1) statuses.push((await me(`svc_live_bad${i}`)).status);
    expect(statuses.slice(0, 60)).toEqual(Array(60).fill(401));
    expect(statuses[60]).toBe(429);
    const over = await me('svc_live_bad61');
    expect(over.status).toBe(429);
    expect(over.body.error).toBe('rate_limited');
    expect(over.headers['retry-after']).toBe('50');
    expect(over.headers['x-ratelimit-limit']).toBe('60');
    expect(over.headers['x-ratelimit-remaining']).toBe('0');

    const valid = await me(plaintext);
    expect(valid.status).toBe(200);
    expect(valid.headers['x-ratelimit-limit']).toBe('600');
    expect(valid.headers['x-ratelimit-remaining']).toBe('599');
  });
});

describe('rate limit switched off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_ENABLED: 'false', RATE_LIMIT_PER_MINUTE: '1' } });
  });
  afterAll(() => t.close());

  it('admits every request and sends no X-RateLimit-* headers', async () => {
    await t.truncate();
    const { application } = await createApplication(t.app);
    const { plaintext } = await createApiKey(t.app, application.id);
    for (let i = 0; i < 3; i += 1) {
      const res = await t.http().get('/api/v1/app/me').set('Authorization', `Bearer ${plaintext}`);
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
  });
});
