import { Logger } from '@nestjs/common';
import { createApiKey, createApplication } from '../../factories';
import { FixedClock } from '../../support/fixed-clock';
import { RedisServer } from '../../support/redis-server';
import { createTestApp, TestApp } from '../../support/test-app';

interface Readiness {
  status: string;
  details: { redis: { status: string; rateLimiterStorage: string; gatesReadiness: boolean } };
}

const onRedis = { status: 'up', rateLimiterStorage: 'redis', gatesReadiness: false };
const onFallback = {
  status: 'down',
  rateLimiterStorage: 'in-process-fallback',
  gatesReadiness: false,
};

/**
 * docs/adr/0002: the limiter fails open to per-instance in-process buckets only while Redis is
 * unreachable (connection lost, refused or hung), says so in the log and in /health/ready, and
 * goes back to Redis by itself. Every test has its own redis-server child and its own app.
 */
describe('rate limiter when Redis fails', () => {
  let redis: RedisServer | undefined;
  let t: TestApp | undefined;
  let url: string;
  const warn = jest.spyOn(Logger.prototype, 'warn');
  const log = jest.spyOn(Logger.prototype, 'log');

  beforeEach(async () => {
    warn.mockClear();
    log.mockClear();
    redis = await RedisServer.start();
    t = await createTestApp({
      clock: new FixedClock(new Date(Date.UTC(2030, 0, 1, 12, 0, 10))),
      // A private Redis: the e2e default REDIS_URL (CI's shared one) must not be used here.
      env: { REDIS_URL: redis.url, RATE_LIMIT_PER_MINUTE: '1000' },
    });
    await t.truncate();
    url = await t.app.getUrl();
  });
  afterEach(async () => {
    await t?.close();
    await redis?.kill();
  });
  afterAll(() => {
    warn.mockRestore();
    log.mockRestore();
  });

  async function newKey(limit?: number): Promise<string> {
    const { application } = await createApplication(t!.app);
    if (limit) {
      await t!.dataSource.query(
        'UPDATE applications SET rate_limit_per_minute = $1 WHERE id = $2',
        [limit, application.id],
      );
    }
    return (await createApiKey(t!.app, application.id)).plaintext;
  }

  async function me(key: string): Promise<{ status: number; remaining: string | null }> {
    const res = await fetch(`${url}/api/v1/app/me`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    await res.arrayBuffer();
    return { status: res.status, remaining: res.headers.get('x-ratelimit-remaining') };
  }

  /** `total` requests, 10 at a time; `fault` runs once `faultAfter` have completed. */
  async function load(key: string, total: number, faultAfter: number, fault: () => unknown) {
    const statuses: number[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < total) {
        next += 1;
        statuses.push((await me(key)).status);
        if (statuses.length === faultAfter) await fault();
      }
    };
    await Promise.all(Array.from({ length: 10 }, worker));
    return statuses;
  }

  const readiness = async () => (await (await fetch(`${url}/health/ready`)).json()) as Readiness;

  /** Polls readiness (ioredis reconnects with back-off of at most 2 s) until it is back on Redis. */
  async function untilBackOnRedis(): Promise<Readiness['details']['redis']> {
    const deadline = Date.now() + 20_000;
    let redisState = (await readiness()).details.redis;
    while (redisState.rateLimiterStorage !== 'redis' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      redisState = (await readiness()).details.redis;
    }
    return redisState;
  }

  it('reports Redis in readiness while it is up', async () => {
    expect((await readiness()).details.redis).toEqual(onRedis);
  });

  it('answers every request from the fallback when Redis hangs mid-run (SIGSTOP), then returns to Redis', async () => {
    const key = await newKey();
    const statuses = await load(key, 300, 100, () => redis!.pause());
    expect(statuses.filter((status) => status === 200)).toHaveLength(300);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('Rate limiter: Redis unavailable'));
    expect((await readiness()).details.redis).toEqual(onFallback);

    redis!.resume();
    expect(await untilBackOnRedis()).toEqual(onRedis);
    expect(log).toHaveBeenCalledWith(expect.stringContaining('Redis reachable again'));
    expect((await me(key)).status).toBe(200);
  });

  it('keeps limiting in the per-instance fallback bucket when Redis is killed', async () => {
    const key = await newKey(5);
    expect(await me(key)).toEqual({ status: 200, remaining: '4' }); // counted on Redis
    await redis!.kill();

    const statuses = await load(key, 40, 0, () => undefined);
    // The fallback bucket starts empty: exactly the limit is admitted on this instance.
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(35);
    expect((await readiness()).details.redis).toEqual(onFallback);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('Rate limiter: Redis unavailable'));
  });

  it('goes back to the shared Redis bucket once a killed Redis is restarted', async () => {
    const key = await newKey(5);
    expect(await me(key)).toEqual({ status: 200, remaining: '4' }); // Redis: 1
    await redis!.kill();
    expect(await me(key)).toEqual({ status: 200, remaining: '4' }); // fallback: 1
    expect(await me(key)).toEqual({ status: 200, remaining: '3' }); // fallback: 2

    await redis!.restart(); // an empty Redis (no persistence)
    expect(await untilBackOnRedis()).toEqual(onRedis);
    expect(log).toHaveBeenCalledWith(expect.stringContaining('Redis reachable again'));
    // Counted on the restarted Redis (1), not in the fallback bucket (which would say 2).
    expect(await me(key)).toEqual({ status: 200, remaining: '4' });
  });
});
