import { Logger } from '@nestjs/common';
import Redis from 'ioredis';
import type { AppConfig } from '../../config/app-config';

export const REDIS_CLIENT = Symbol('RATE_LIMIT_REDIS_CLIENT');

/** Reconnect delays grow to 2 s, so a Redis outage costs one connection attempt every 2 s. */
const retryDelayMs = (attempt: number): number => Math.min(attempt * 100, 2_000);

/**
 * The limiter's Redis connection (docs/adr/0002): no offline queue (a command fails at once
 * while disconnected), no resending of commands after a reconnect, and no command timeout:
 * a slow reply is waited for; only a connection that is lost, refused or hung (RedisWatchdog)
 * makes the limiter fall back.
 */
export function createLimiterRedis(config: AppConfig): Redis | null {
  if (!config.redisUrl || !config.rateLimitEnabled) return null;
  const redis = new Redis(config.redisUrl, {
    enableOfflineQueue: false,
    connectTimeout: config.redisConnectTimeoutMs,
    // A dropped connection (a hung Redis never answers the FIN) is destroyed this soon.
    disconnectTimeout: 50,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    retryStrategy: retryDelayMs,
    connectionName: 'identity-service-rate-limit',
    // Commands of concurrent requests issued in one tick share one write and one read.
    enableAutoPipelining: true,
  });
  const logger = new Logger('RateLimit');
  // Without a listener ioredis reports every failed reconnect as an unhandled error event;
  // outages are logged once per transition by LimiterStore instead.
  redis.on('error', (error: Error) => logger.debug(`Redis connection error: ${error.message}`));
  return redis;
}

/** host:port/db of a Redis URL, without credentials, for log lines. */
export function describeRedisUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '6379'}${parsed.pathname || '/0'}`;
}

/** Resolves when the connection is ready, or false after `timeoutMs`; boot never waits longer. */
export function waitUntilReady(redis: Redis, timeoutMs: number): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ready: boolean): void => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(ready);
    };
    const onReady = (): void => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    redis.on('ready', onReady);
  });
}
