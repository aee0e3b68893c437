import { Logger } from '@nestjs/common';
import { createApiKey, createApplication } from '../factories';
import { FixedClock } from '../utils/fixed-clock';
import { RedisServer, redisServerAvailable } from '../utils/redis-server';
import { createTestApp, TestApp } from '../utils/test-app';

const canRun = redisServerAvailable();
if (!canRun) process.stderr.write('rate-limit-redis-fault: skipped, no redis-server binary\n');
const describeWithRedis = canRun ? describe : describe.skip;

interface Outcome {
  status: number;
  ms: number;
}

/** 99th percentile (nearest rank). */
const p99 = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.99) - 1];

/**
 * docs/adr/0002: when Redis fails the limiter fails open to per-instance in-process buckets,
 * says so in the log and in /health/ready, and no request waits on Redis for long.
 */
describeWithRedis('rate limiter when Redis fails', () => {
  let redis: RedisServer;
  let t: TestApp;
  let url: string;
  const warn = jest.spyOn(Logger.prototype, 'warn');
  const log = jest.spyOn(Logger.prototype, 'log');

  beforeAll(async () => {
    redis = await RedisServer.start();
    t = await createTestApp({
      clock: new FixedClock(new Date(Date.UTC(2030, 0, 1, 12, 0, 10))),
      env: { REDIS_URL: redis.url, RATE_LIMIT_PER_MINUTE: '1000' },
    });
    url = await t.app.getUrl();
  });
  afterAll(async () => {
    await t?.close();
    await redis?.kill();
    warn.mockRestore();
    log.mockRestore();
  });

  async function newKey(limit?: number): Promise<string> {
    const { application } = await createApplication(t.app);
    if (limit) {
      await t.dataSource.query('UPDATE applications SET rate_limit_per_minute = $1 WHERE id = $2', [
        limit,
        application.id,
      ]);
    }
    return (await createApiKey(t.app, application.id)).plaintext;
  }

  async function timedMe(key: string): Promise<Outcome> {
    const started = performance.now();
    const res = await fetch(`${url}/api/v1/app/me`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - started };
  }

  /** `total` requests, `concurrency` at a time; `fault` runs once `faultAfter` have completed. */
  async function load(key: string, total: number, faultAfter: number, fault: () => unknown) {
    const outcomes: Outcome[] = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < total) {
        next += 1;
        outcomes.push(await timedMe(key));
        if (outcomes.length === faultAfter) await fault();
      }
    };
    await Promise.all(Array.from({ length: 10 }, worker));
    return outcomes;
  }

  interface Readiness {
    status: string;
    details: { redis: { status: string; rateLimiterStorage: string; gatesReadiness: boolean } };
  }
  const readiness = async () => (await (await fetch(`${url}/health/ready`)).json()) as Readiness;

  it('reports Redis in readiness while it is up', async () => {
    const body = await readiness();
    expect(body.status).toBe('ok');
    expect(body.details.redis).toEqual({
      status: 'up',
      rateLimiterStorage: 'redis',
      gatesReadiness: false,
    });
  });

  it('fails open without waiting when Redis stops answering mid-run (SIGSTOP)', async () => {
    const key = await newKey();
    const outcomes = await load(key, 300, 100, () => redis.pause());
    expect(outcomes.filter((o) => o.status === 200)).toHaveLength(300);
    expect(p99(outcomes.map((o) => o.ms))).toBeLessThan(1000);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('Rate limiter: Redis unavailable'));
    expect((await readiness()).details.redis).toEqual({
      status: 'down',
      rateLimiterStorage: 'in-process-fallback',
      gatesReadiness: false,
    });
    redis.resume();
  });

  it('keeps limiting in the per-instance fallback bucket when Redis is killed', async () => {
    await readiness(); // a successful ping after SIGCONT: back on Redis
    const key = await newKey(5);
    const before = await timedMe(key);
    expect(before.status).toBe(200);
    await redis.kill();

    const outcomes = await load(key, 40, 0, () => undefined);
    // The fallback bucket starts empty: exactly the limit is admitted on this instance.
    expect(outcomes.filter((o) => o.status === 200)).toHaveLength(5);
    expect(outcomes.filter((o) => o.status === 429)).toHaveLength(35);
    expect(p99(outcomes.map((o) => o.ms))).toBeLessThan(1000);
    expect((await readiness()).details.redis.status).toBe('down');
  });

  it('goes back to the shared Redis bucket once Redis returns', async () => {
    log.mockClear();
    const key = await newKey(5);
    await redis.restart();
    const deadline = Date.now() + 10_000;
    // ioredis reconnects with back-off (at most 2 s between attempts).
    while ((await readiness()).details.redis.status !== 'up' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await readiness()).details.redis.rateLimiterStorage).toBe('redis');
    expect(log).toHaveBeenCalledWith(expect.stringContaining('Redis reachable again'));
    const res = await fetch(`${url}/api/v1/app/me`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('4');
  });
});
