import { createApiKey, createApplication } from '../../factories';
import { FixedClock } from '../../support/fixed-clock';
import { increase, scrape, valueOf } from '../../support/metrics';
import { RedisServer } from '../../support/redis-server';
import { createTestApp, TestApp } from '../../support/test-app';
import { LimiterStore } from '../../../src/modules/rate-limit/limiter-store';

/** Mid-minute, so that every request of a test is counted in one window. */
const clock = (): FixedClock => new FixedClock(new Date(Date.UTC(2030, 0, 1, 12, 0, 10)));

async function keyOf(t: TestApp): Promise<string> {
  const { application } = await createApplication(t.app);
  return (await createApiKey(t.app, application.id)).plaintext;
}

const me = (t: TestApp, key: string) =>
  t.http().get('/api/v1/app/me').set('Authorization', `Bearer ${key}`);

// docs/operations.md, "Metrics": rate-limit decisions per bucket, and the limiter's storage.
describe('rate-limit metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      clock: clock(),
      env: { METRICS_PORT: '0', RATE_LIMIT_PER_MINUTE: '3' },
    });
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  it('counts admitted and limited requests per bucket', async () => {
    const key = await keyOf(t);
    const before = (await scrape(t.app)).samples;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await me(t, key)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect((await me(t, 'svc_live_not-a-key')).status).toBe(401);
    const { samples } = await scrape(t.app);
    const name = 'idsvc_rate_limit_decisions_total';
    expect(increase(before, samples, name, { bucket: 'app', decision: 'admitted' })).toBe(3);
    expect(increase(before, samples, name, { bucket: 'app', decision: 'limited' })).toBe(2);
    const unauthenticated = { bucket: 'unauthenticated', decision: 'admitted' };
    expect(increase(before, samples, name, unauthenticated)).toBe(1);
    expect(increase(before, samples, name, { decision: 'fail_open' })).toBe(0);
  });

  it('reports where the counters are kept', async () => {
    const { samples } = await scrape(t.app);
    const mode = t.app.get(LimiterStore).mode;
    expect(valueOf(samples, 'idsvc_rate_limit_storage', { mode })).toBe(1);
    const others = samples.filter((s) => s.name === 'idsvc_rate_limit_storage' && s.value !== 0);
    expect(others).toHaveLength(1);
  });
});

/** As rate-limit-redis-fault.e2e-spec.ts: a private redis-server, killed and restarted. */
describe('rate-limit metrics when Redis fails', () => {
  let redis: RedisServer;
  let t: TestApp;
  beforeAll(async () => {
    redis = await RedisServer.start();
    t = await createTestApp({ clock: clock(), env: { METRICS_PORT: '0', REDIS_URL: redis.url } });
    await t.truncate();
  });
  afterAll(async () => {
    await t.close();
    await redis.kill();
  });

  /** Polls until the limiter counts on Redis again (ioredis reconnects with back-off). */
  async function untilBackOnRedis(key: string): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (t.app.get(LimiterStore).mode !== 'redis' && Date.now() < deadline) {
      await me(t, key);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('counts the transitions down and up, and the requests admitted while failing open', async () => {
    const key = await keyOf(t);
    const before = (await scrape(t.app)).samples;
    expect((await me(t, key)).status).toBe(200);
    await redis.kill();
    expect((await me(t, key)).status).toBe(200);
    const down = (await scrape(t.app)).samples;
    const transitions = 'idsvc_rate_limit_redis_transitions_total';
    expect(increase(before, down, transitions, { from: 'up', to: 'down' })).toBe(1);
    const failOpen = { bucket: 'app', decision: 'fail_open' };
    expect(increase(before, down, 'idsvc_rate_limit_decisions_total', failOpen)).toBe(1);
    const storage = 'idsvc_rate_limit_storage';
    expect(valueOf(down, storage, { mode: 'in-process-fallback' })).toBe(1);

    await redis.restart();
    await untilBackOnRedis(key);
    const up = (await scrape(t.app)).samples;
    expect(increase(before, up, transitions, { from: 'down', to: 'up' })).toBe(1);
    expect(valueOf(up, storage, { mode: 'redis' })).toBe(1);
  });
});
