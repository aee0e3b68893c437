import Redis from 'ioredis';
import { RedisServer } from '../../../test/support/redis-server';
import { defineRedisCounter, type RedisCounter } from './redis-counter';

/** The scripts against a real redis-server (REDIS_URL when set, else a private child process). */
describe('defineRedisCounter', () => {
  let server: RedisServer | undefined;
  let redis: Redis;
  let counter: RedisCounter;
  const prefix = `idsvc-unit:${process.pid}:${Date.now()}:`;
  let n = 0;
  const freshKey = (): string => `${prefix}${(n += 1)}`;

  beforeAll(async () => {
    if (!process.env.REDIS_URL) server = await RedisServer.start();
    redis = new Redis(process.env.REDIS_URL ?? server!.url, { lazyConnect: true });
    await redis.connect();
    counter = defineRedisCounter(redis);
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    await server?.kill();
  });

  describe('increment', () => {
    it('counts and sets the expiry on the first count only', async () => {
      const key = freshKey();
      expect(await counter.increment(key, 60_000)).toBe(1);
      expect(await counter.increment(key, 1)).toBe(2);
      expect(await redis.pttl(key)).toBeGreaterThan(1000);
    });
  });

  describe('decrement', () => {
    it('gives back one count and keeps the expiry', async () => {
      const key = freshKey();
      await counter.increment(key, 60_000);
      await counter.increment(key, 60_000);
      expect(await counter.decrement(key)).toBe(1);
      expect(await redis.get(key)).toBe('1');
      expect(await redis.pttl(key)).toBeGreaterThan(1000);
    });

    it('never goes below 0 and never creates a key', async () => {
      const key = freshKey();
      await counter.increment(key, 60_000);
      expect(await counter.decrement(key)).toBe(0);
      expect(await counter.decrement(key)).toBe(0);
      expect(await redis.get(key)).toBe('0');
      const missing = freshKey();
      expect(await counter.decrement(missing)).toBe(0);
      expect(await redis.exists(missing)).toBe(0);
    });

    it('lets exactly as many concurrent increments as were given back take a slot again', async () => {
      const key = freshKey();
      for (let i = 0; i < 5; i += 1) await counter.increment(key, 60_000);
      await Promise.all([counter.decrement(key), counter.decrement(key)]);
      const counts = await Promise.all(
        Array.from({ length: 10 }, () => counter.increment(key, 60_000)),
      );
      expect(counts.filter((count) => count <= 5)).toHaveLength(2);
    });
  });
});
