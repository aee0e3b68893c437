import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { sha256Hex } from '../../../src/common/crypto/hash';
import { storedPrefixOf } from '../../../src/modules/keys/key-format';
import { createApiKey, createApplication } from '../../factories';
import { loadCpus, type CpuLoad } from '../../support/cpu-load';
import { FixedClock } from '../../support/fixed-clock';
import { RedisServer } from '../../support/redis-server';
import { createTestApp, TestApp } from '../../support/test-app';
import { usingRealServices } from '../../support/test-env';

/**
 * docs/contract/README.md#rate-limits: one bucket per application shared by every instance of the service.
 * Redis is REDIS_URL from the environment (CI), else a private redis-server child process.
 */
describe('rate limit shared by two instances on one Redis', () => {
  const clock = new FixedClock(new Date(Date.UTC(2030, 0, 1, 12, 0, 10)));
  let redis: RedisServer | undefined;
  let one: TestApp;
  let two: TestApp;
  let cpuLoad: CpuLoad | undefined;
  const warn = jest.spyOn(Logger.prototype, 'warn');

  beforeAll(async () => {
    if (!process.env.REDIS_URL) redis = await RedisServer.start();
    const env = {
      RATE_LIMIT_PER_MINUTE: '600',
      // Both instances must use the same keys; unique per run so parallel runs never collide.
      RATE_LIMIT_KEY_PREFIX: `idsvc-test:${randomUUID()}:`,
      ...(redis ? { REDIS_URL: redis.url } : {}),
    };
    one = await createTestApp({ env, clock });
    two = await createTestApp({ env, clock });
  });
  afterAll(async () => {
    await cpuLoad?.stop(); // a failed expectation must not leave the spinners running
    await one?.truncate(); // also deletes this run's Redis keys
    await one?.close();
    await two?.close();
    await redis?.kill();
    warn.mockRestore();
  });

  /** The same application and key on both instances (one shared database, or two embedded ones). */
  async function sharedKey(): Promise<string> {
    await one.truncate();
    const { application } = await createApplication(one.app, { name: 'Shared' });
    const { plaintext } = await createApiKey(one.app, application.id);
    if (usingRealServices()) return plaintext;
    await two.truncate();
    const { application: copy } = await createApplication(two.app, { name: 'Shared' });
    const { apiKey } = await createApiKey(two.app, copy.id);
    await two.dataSource.query('UPDATE api_keys SET key_hash = $1, key_prefix = $2 WHERE id = $3', [
      sha256Hex(plaintext),
      storedPrefixOf(plaintext),
      apiKey.id,
    ]);
    return plaintext;
  }

  // With both cores busy, replies from Redis queue behind the burst; a slow
  // reply must be waited for, never taken for a dead Redis (docs/adr/0002).
  it('admits exactly 600 of 1000 concurrent requests spread over both instances while both cores are busy', async () => {
    const key = await sharedKey();
    const urls = [await one.app.getUrl(), await two.app.getUrl()];
    cpuLoad = loadCpus(2);
    let responses: Response[];
    try {
      responses = await Promise.all(
        Array.from({ length: 1000 }, (_, i) =>
          fetch(`${urls[i % 2]}/api/v1/app/me`, { headers: { Authorization: `Bearer ${key}` } }),
        ),
      );
    } finally {
      await cpuLoad.stop();
    }
    // Redis was reachable all along: no instance may have left it (docs/adr/0002).
    const fallbacks = warn.mock.calls.filter(([message]) =>
      String(message).startsWith('Rate limiter: Redis unavailable'),
    );
    expect(fallbacks).toEqual([]);
    const admitted = responses.filter((res) => res.status === 200);
    const limited = responses.filter((res) => res.status === 429);
    expect(admitted).toHaveLength(600);
    expect(limited).toHaveLength(400);
    // Every admitted request saw its own count: remaining values are exactly 0..599, once each.
    const remaining = admitted.map((res) => Number(res.headers.get('x-ratelimit-remaining')));
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 600 }, (_, i) => i));
    expect(new Set(limited.map((res) => res.headers.get('x-ratelimit-remaining')))).toEqual(
      new Set(['0']),
    );
    await Promise.all(responses.map((res) => res.arrayBuffer()));
    // Not a latency bound: with both cores taken by spinners (and two embedded databases in
    // this process when DATABASE_URL is unset) the burst takes minutes, far above the default.
  }, 300_000);
});
