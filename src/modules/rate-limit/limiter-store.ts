import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ThrottlerStorageService, type ThrottlerStorage } from '@nestjs/throttler';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import type Redis from 'ioredis';
import { AppConfig } from '../../config/app-config';
import { describeRedisUrl, REDIS_CLIENT, waitUntilReady } from './redis-client';

/** Where counters are kept right now; reported by the readiness endpoint. */
export type LimiterStorageMode = 'redis' | 'in-process' | 'in-process-fallback';

/** While Redis is failing, at most one request per interval tries it again. */
const PROBE_INTERVAL_MS = 1_000;

/**
 * Atomic counters for the rate limiter: the throttler's Redis storage (one Lua script per
 * increment, so every instance shares the count) or, without REDIS_URL, the throttler's
 * in-process storage. When Redis fails the store fails open to in-process buckets kept per
 * instance, logs the transition, and goes back to Redis once it answers (docs/adr/0002).
 */
@Injectable()
export class LimiterStore implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly local = new ThrottlerStorageService();
  private readonly shared?: ThrottlerStorage;
  private redisHealthy = true;
  private nextProbeAt = 0;

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    @Inject(REDIS_CLIENT) private readonly redis: Redis | null,
  ) {
    if (redis) this.shared = new ThrottlerStorageRedisService(redis);
  }

  async onModuleInit(): Promise<void> {
    if (!this.config.rateLimitEnabled) {
      this.logger.log('Rate limiter: disabled (RATE_LIMIT_ENABLED=false)');
    } else if (!this.redis || !this.config.redisUrl) {
      this.logger.log('Rate limiter: in-process buckets, per instance (no REDIS_URL set)');
    } else if (await waitUntilReady(this.redis, this.config.redisConnectTimeoutMs)) {
      this.logger.log(`Rate limiter: Redis buckets at ${describeRedisUrl(this.config.redisUrl)}`);
    } else {
      this.markDown(new Error('not reachable at boot'));
    }
  }

  onApplicationShutdown(): void {
    this.local.onApplicationShutdown();
    this.redis?.disconnect();
  }

  get mode(): LimiterStorageMode {
    if (!this.shared) return 'in-process';
    return this.redisHealthy ? 'redis' : 'in-process-fallback';
  }

  /** Counts one request in `bucket` and returns the count so far (it stops at limit + 1). */
  async increment(key: string, limit: number, ttlMs: number, bucket: string): Promise<number> {
    if (this.shared && this.shouldTryRedis()) {
      try {
        const record = await this.shared.increment(key, ttlMs, limit, ttlMs, bucket);
        this.markUp();
        return record.totalHits;
      } catch (error) {
        this.markDown(error);
      }
    }
    const record = await this.local.increment(key, ttlMs, limit, ttlMs, bucket);
    return record.totalHits;
  }

  /** The current count of a bucket, without counting anything. */
  async peek(key: string, bucket: string): Promise<number> {
    if (this.redis && this.shouldTryRedis()) {
      try {
        // The key layout of ThrottlerStorageRedisService.increment.
        const value = await this.redis.get(`{${key}:${bucket}}:hits`);
        this.markUp();
        return value === null ? 0 : Number(value);
      } catch (error) {
        this.markDown(error);
      }
    }
    return this.local.storage.get(key)?.totalHits.get(bucket) ?? 0;
  }

  /** Pings Redis (bounded by the command timeout); undefined when no Redis is configured. */
  async pingRedis(): Promise<boolean | undefined> {
    if (!this.redis) return undefined;
    try {
      await this.redis.ping();
      this.markUp();
      return true;
    } catch (error) {
      this.markDown(error);
      return false;
    }
  }

  /**
   * Drops every counter under RATE_LIMIT_KEY_PREFIX, in this process and in Redis. Tests use it
   * so that each case starts with full buckets; in operation it lifts all limits at once.
   */
  async clear(): Promise<void> {
    this.local.onApplicationShutdown();
    if (!this.redis || this.redis.status !== 'ready') return;
    // Keys look like `{<prefix>...:<bucket>}:hits` (ThrottlerStorageRedisService).
    const match = `{${this.config.rateLimitKeyPrefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', match, 'COUNT', 500);
      if (keys.length > 0) await this.redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  }

  private shouldTryRedis(): boolean {
    if (this.redisHealthy) return true;
    // Disconnected: ioredis rejects at once anyway, skip the attempt. Connected but failing
    // (timeouts): let one request probe per interval instead of every request waiting.
    if (this.redis?.status !== 'ready' || Date.now() < this.nextProbeAt) return false;
    this.nextProbeAt = Date.now() + PROBE_INTERVAL_MS;
    return true;
  }

  private markDown(error: unknown): void {
    this.nextProbeAt = Date.now() + PROBE_INTERVAL_MS;
    if (!this.redisHealthy) return;
    this.redisHealthy = false;
    const reason = error instanceof Error ? error.message : String(error);
    this.logger.warn(
      `Rate limiter: Redis unavailable (${reason}); failing open to per-instance in-process buckets`,
    );
  }

  private markUp(): void {
    if (this.redisHealthy) return;
    this.redisHealthy = true;
    this.logger.log('Rate limiter: Redis reachable again; back on the shared buckets');
  }
}
