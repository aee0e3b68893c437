import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type Redis from 'ioredis';
import { Metrics, NOOP_METRICS } from '../../common/metrics/metrics';
import { AppConfig } from '../../config/app-config';
import { LocalCounters } from './local-counters';
import { describeRedisUrl, REDIS_CLIENT, waitUntilReady } from './redis-client';
import { defineRedisCounter, type RedisCounter } from './redis-counter';
import { RedisWatchdog } from './redis-watchdog';

/** Where counters are kept right now; reported by the readiness endpoint. */
export type LimiterStorageMode = 'redis' | 'in-process' | 'in-process-fallback';

/**
 * Atomic counters for the rate limiter: in Redis (one Lua script per increment, so every
 * instance shares the count; key layout owned by this module, see redis-counter.ts) or, without
 * REDIS_URL, in this process (LocalCounters). The store fails open to in-process buckets kept
 * per instance only while Redis is unreachable: the connection is lost, refused, not ready yet,
 * or hung (not a byte from Redis for REDIS_STALL_MS while commands wait, see RedisWatchdog).
 * A slow reply is waited for. One log line per transition; the first successful command on a
 * ready connection switches back (docs/adr/0002).
 */
@Injectable()
export class LimiterStore implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly local = new LocalCounters();
  private readonly shared?: RedisCounter;
  private readonly watchdog?: RedisWatchdog;
  private redisHealthy = true;
  private shuttingDown = false;

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    @Inject(REDIS_CLIENT) private readonly redis: Redis | null,
    @Inject(Metrics) private readonly metrics: Metrics = NOOP_METRICS,
  ) {
    metrics.onLimiterScrape(() => this.mode);
    if (!redis) return;
    this.shared = defineRedisCounter(redis);
    this.watchdog = new RedisWatchdog(redis, config.redisStallMs, () =>
      this.markDown(`nothing received for ${config.redisStallMs} ms, connection dropped`),
    );
  }

  async onModuleInit(): Promise<void> {
    if (!this.config.rateLimitEnabled) {
      this.logger.log('Rate limiter: disabled (RATE_LIMIT_ENABLED=false)');
    } else if (!this.redis || !this.config.redisUrl) {
      this.logger.log('Rate limiter: in-process buckets, per instance (no REDIS_URL set)');
    } else if (await waitUntilReady(this.redis, this.config.redisConnectTimeoutMs)) {
      this.logger.log(`Rate limiter: Redis buckets at ${describeRedisUrl(this.config.redisUrl)}`);
    } else {
      this.markDown('not reachable at boot');
    }
    this.watchdog?.start();
    this.redis?.on('close', () => {
      if (!this.shuttingDown) this.markDown('connection closed');
    });
  }

  onApplicationShutdown(): void {
    this.shuttingDown = true;
    this.watchdog?.stop();
    this.redis?.disconnect();
  }

  get mode(): LimiterStorageMode {
    if (!this.shared) return 'in-process';
    return this.redisHealthy && this.redis?.status === 'ready' ? 'redis' : 'in-process-fallback';
  }

  /** Counts one request in `bucket` and returns the count so far. */
  async increment(key: string, ttlMs: number, bucket: string): Promise<number> {
    const counterKey = `${key}:${bucket}`;
    const shared = this.shared;
    if (shared) {
      const count = await this.onRedis(() => shared.increment(counterKey, ttlMs));
      if (count !== undefined) return count;
    }
    return this.local.increment(counterKey, ttlMs);
  }

  /**
   * Gives back one count of `bucket` (a slot taken with increment and then not used) and
   * returns the count left; never below 0, and an expired counter stays gone. While Redis is
   * unreachable it gives back in this process only: a slot taken on Redis just before it went
   * away stays taken until its window ends (the safe direction for a limit).
   */
  async decrement(key: string, bucket: string): Promise<number> {
    const counterKey = `${key}:${bucket}`;
    const shared = this.shared;
    if (shared) {
      const count = await this.onRedis(() => shared.decrement(counterKey));
      if (count !== undefined) return count;
    }
    return this.local.decrement(counterKey);
  }

  /** Pings Redis; undefined when no Redis is configured. */
  async pingRedis(): Promise<boolean | undefined> {
    const redis = this.redis;
    if (!redis) return undefined;
    return (await this.onRedis(() => redis.ping())) !== undefined;
  }

  /**
   * Drops every counter under RATE_LIMIT_KEY_PREFIX, in this process and in Redis. Tests use it
   * so that each case starts with full buckets; in operation it lifts all limits at once.
   */
  async clear(): Promise<void> {
    this.local.clear();
    if (!this.redis || this.redis.status !== 'ready') return;
    // Every counter key starts with the prefix (redis-counter.ts); glob characters escaped.
    const match = `${this.config.rateLimitKeyPrefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', match, 'COUNT', 500);
      if (keys.length > 0) await this.redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  }

  /**
   * Runs a command on Redis when the connection is ready; undefined (the caller falls back)
   * when it is not, or when the command fails: the connection was lost or dropped as hung,
   * or Redis answered with an error and so cannot count.
   */
  private async onRedis<T>(command: () => Promise<T>): Promise<T | undefined> {
    if (!this.redis || !this.watchdog || this.redis.status !== 'ready') {
      if (this.redis) this.markDown(`connection ${this.redis.status}`);
      return undefined;
    }
    try {
      const result = await this.watchdog.watch(command());
      this.markUp();
      return result;
    } catch (error) {
      this.markDown(error instanceof Error ? error.message : String(error));
      return undefined;
    }
  }

  private markDown(reason: string): void {
    if (!this.redisHealthy) return;
    this.redisHealthy = false;
    this.metrics.redisStateChange('up', 'down');
    this.logger.warn(
      `Rate limiter: Redis unavailable (${reason}); failing open to per-instance in-process buckets`,
    );
  }

  private markUp(): void {
    if (this.redisHealthy) return;
    this.redisHealthy = true;
    this.metrics.redisStateChange('down', 'up');
    this.logger.log('Rate limiter: Redis reachable again; back on the shared buckets');
  }
}
