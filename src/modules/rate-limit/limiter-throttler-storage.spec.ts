import type { Clock } from '../../common/clock';
import type { AppConfig } from '../../config/app-config';
import { LimiterStore } from './limiter-store';
import { LimiterThrottlerStorage } from './limiter-throttler-storage';

/** The storage over an in-process LimiterStore (no REDIS_URL), with a clock the test moves. */
describe(LimiterThrottlerStorage.name, () => {
  const minute = Date.UTC(2030, 0, 1, 12, 0, 0);
  let now: number;
  let storage: LimiterThrottlerStorage;

  beforeEach(() => {
    now = minute + 10_000; // 12:00:10, 50 s before the window ends
    const config: Partial<AppConfig> = { rateLimitEnabled: true, rateLimitKeyPrefix: 'test:' };
    const clock: Clock = { now: () => new Date(now) };
    storage = new LimiterThrottlerStorage(new LimiterStore(config as AppConfig, null), clock);
  });

  const hit = (key = 'k', limit = 2) => storage.increment(key, 60_000, limit, 60_000, 'bucket');

  describe('increment', () => {
    it('counts in the fixed window and refuses past the limit until the window ends', async () => {
      expect(await hit()).toMatchObject({ totalHits: 1, isBlocked: false, timeToBlockExpire: 0 });
      expect(await hit()).toMatchObject({ totalHits: 2, isBlocked: false, timeToExpire: 50 });
      const over = await hit();
      expect(over).toMatchObject({ totalHits: 3, isBlocked: true, timeToBlockExpire: 50 });
      expect(over.window.resetEpochSeconds).toBe(minute / 1000 + 60);
    });

    it('starts from zero in the next window (the window is part of the key)', async () => {
      await hit();
      await hit();
      now = minute + 60_000;
      expect(await hit()).toMatchObject({ totalHits: 1, isBlocked: false, timeToExpire: 60 });
    });

    it('keeps the counts of different throttler names apart', async () => {
      await hit();
      expect((await storage.increment('k', 60_000, 2, 60_000, 'other')).totalHits).toBe(1);
    });

    it('uses the ttl as the window length', async () => {
      const quarter = await storage.increment('q', 15 * 60_000, 5, 0, 'bucket');
      expect(quarter.timeToExpire).toBe(15 * 60 - 10);
    });
  });

  describe('decrement', () => {
    it('gives a hit back in the window it was taken in, even once the clock is past it', async () => {
      await hit();
      const taken = await hit();
      now = minute + 60_000;
      const fresh = await hit(); // the next window's own count
      expect(await storage.decrement('k', taken.window, 'bucket')).toBe(1);
      expect(fresh.totalHits).toBe(1);
      expect((await hit()).totalHits).toBe(2); // the next window was not touched
    });
  });
});
