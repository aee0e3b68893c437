import Redis from 'ioredis';
import type { AppConfig } from '../../config/app-config';
import type { StatusReport } from './status-report';

/** One connection and one PING, within the limiter's connect timeout; never retried. */
export async function probeRedis(config: AppConfig): Promise<StatusReport['redis']> {
  if (!config.redisUrl || !config.rateLimitEnabled) {
    return { configured: false, reachable: null, pingMs: null };
  }
  const redis = new Redis(config.redisUrl, {
    lazyConnect: true,
    connectTimeout: config.redisConnectTimeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
    connectionName: 'identity-cli-status',
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    const started = process.hrtime.bigint();
    await redis.ping();
    const pingMs = Number(process.hrtime.bigint() - started) / 1e6;
    return { configured: true, reachable: true, pingMs: Math.round(pingMs * 10) / 10 };
  } catch {
    return { configured: true, reachable: false, pingMs: null };
  } finally {
    // A connection that never opened is already over ('end'); disconnecting it anyway arms
    // ioredis's 2 s timer for a stream that never closes again, which kept the CLI from exiting.
    if (redis.status !== 'end') redis.disconnect();
  }
}
