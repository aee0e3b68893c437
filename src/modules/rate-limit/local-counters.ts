/** One counter of the in-process store: its count and when it expires (epoch milliseconds). */
interface LocalCounter {
  count: number;
  expiresAt: number;
}

/** Expired counters are swept at most this often, so a sweep costs nothing per request. */
const PRUNE_INTERVAL_MS = 10_000;

/**
 * Counters kept in this process: the limiter's store without REDIS_URL, and its per-instance
 * fallback while Redis is unreachable (docs/adr/0002). Same semantics as the Redis counter: the
 * first increment of a key starts its lifetime, later ones only count; an expired key starts over.
 */
export class LocalCounters {
  private readonly counters = new Map<string, LocalCounter>();
  private nextPruneAt: number;

  constructor(private readonly now: () => number = Date.now) {
    this.nextPruneAt = now() + PRUNE_INTERVAL_MS;
  }

  /** Counts one hit on `key` and returns the count so far. */
  increment(key: string, ttlMs: number): number {
    const now = this.now();
    this.prune(now);
    const current = this.counters.get(key);
    if (current && current.expiresAt > now) {
      current.count += 1;
      return current.count;
    }
    this.counters.set(key, { count: 1, expiresAt: now + ttlMs });
    return 1;
  }

  /**
   * Takes back one hit on `key` (a slot reserved and then not used) and returns the count left.
   * Never below 0, never creates a counter nor changes its lifetime: an expired or unknown key
   * has nothing to give back.
   */
  decrement(key: string): number {
    const current = this.counters.get(key);
    if (!current || current.expiresAt <= this.now()) return 0;
    current.count = Math.max(0, current.count - 1);
    return current.count;
  }

  /** The current count of `key`; 0 once it has expired. */
  peek(key: string): number {
    const current = this.counters.get(key);
    return current && current.expiresAt > this.now() ? current.count : 0;
  }

  clear(): void {
    this.counters.clear();
  }

  /** Number of counters held, expired or not (for tests of the sweep). */
  get size(): number {
    return this.counters.size;
  }

  private prune(now: number): void {
    if (now < this.nextPruneAt) return;
    this.nextPruneAt = now + PRUNE_INTERVAL_MS;
    for (const [key, counter] of this.counters) {
      if (counter.expiresAt <= now) this.counters.delete(key);
    }
  }
}
