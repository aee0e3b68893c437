import { randomUUID } from 'node:crypto';

/**
 * The environment an e2e app runs with: the real PostgreSQL and Redis when DATABASE_URL /
 * REDIS_URL are set (as CI sets them), otherwise a throw-away embedded PGlite and in-process
 * limiter storage.
 */
export function testEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    EMBEDDED_DATA_DIR: 'memory://',
    PUBLIC_BASE_URL: 'http://127.0.0.1:3000',
    // Rate-limit buckets of one test app never mix with another run's in a shared Redis.
    RATE_LIMIT_KEY_PREFIX: `idsvc-test:${randomUUID()}:`,
    // No scheduled purge under a test's feet; purge tests call PurgeService.runOnce().
    PURGE_INTERVAL_SECONDS: '0',
    // No delivery timer either; webhook tests drive rounds with WebhookDelivery.runRound().
    WEBHOOKS_POLL_MS: '0',
    // scrypt N = 2^10 instead of 2^15: the same hashing and checks, 32 times less work per sign-in
    // (hundreds of them in the suite); the default is asserted in src/modules/users/password.spec.ts.
    PASSWORD_HASH_COST: '10',
    // The loopback mailboxes (test/support/smtp-server.ts) offer no STARTTLS; without this
    // opt-out the service refuses to send them anything (docs/accounts.md, "Mail").
    SMTP_ALLOW_PLAINTEXT: 'true',
  };
  if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
  if (process.env.REDIS_URL) env.REDIS_URL = process.env.REDIS_URL;
  return { ...env, ...extra };
}

export const usingRealServices = (): boolean => Boolean(process.env.DATABASE_URL);
