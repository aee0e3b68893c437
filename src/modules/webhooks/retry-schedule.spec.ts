import { backoffMs, MAX_RETRY_AFTER_MS, retryAfterMs } from './retry-schedule';

describe('webhook retry schedule', () => {
  it('follows 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, then every 2 h', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 20].map((n) => backoffMs(n, 0) / 1000);
    expect(delays).toEqual([5, 30, 120, 600, 1800, 3600, 7200, 7200]);
  });

  it('adds at most 20 % jitter, never less than the schedule', () => {
    expect(backoffMs(1, 0.999)).toBeLessThanOrEqual(6000);
    expect(backoffMs(1, 0.5)).toBe(5500);
  });

  it('reads Retry-After as seconds or an HTTP date, capped at one hour', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:02:00 GMT', now)).toBe(120_000);
    expect(retryAfterMs('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('999999', now)).toBe(MAX_RETRY_AFTER_MS);
    expect(retryAfterMs(null, now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs('-5', now)).toBeUndefined();
  });
});
