import type Redis from 'ioredis';

/**
 * INCR, and PEXPIRE when the INCR created the key: one atomic step, so a counter never lives
 * without its expiry and every instance counts into the same key. Returns the count so far.
 */
const INCREMENT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

type IncrementCommand = (key: string, ttlMs: number) => Promise<number>;

/**
 * Registers the script on the limiter's connection (ioredis `defineCommand`: sent as EVALSHA,
 * loaded with EVAL only when the server answers NOSCRIPT) and returns the call. The keys are
 * this module's own layout: `<RATE_LIMIT_KEY_PREFIX>…:<bucket>`, a plain string counter.
 */
export function defineRedisCounter(redis: Redis): IncrementCommand {
  redis.defineCommand('rateLimitIncrement', { numberOfKeys: 1, lua: INCREMENT_SCRIPT });
  const command = (redis as unknown as { rateLimitIncrement: IncrementCommand }).rateLimitIncrement;
  return (key, ttlMs) => command.call(redis, key, Math.ceil(ttlMs));
}
