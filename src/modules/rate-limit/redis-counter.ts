import type Redis from 'ioredis';

/**
 * INCR, and PEXPIRE when the INCR created the key: one atomic step, so a counter never lives
 * without its expiry and every instance counts into the same key. Returns the count so far.
 */
const INCREMENT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

/**
 * DECR only while the key exists and is above 0: a slot given back after its window expired
 * must not leave a negative counter without an expiry. DECR keeps the key's PEXPIRE.
 */
const DECREMENT_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count <= 0 then return 0 end
return redis.call('DECR', KEYS[1])`;

type IncrementCommand = (key: string, ttlMs: number) => Promise<number>;
type DecrementCommand = (key: string) => Promise<number>;

export interface RedisCounter {
  increment: IncrementCommand;
  decrement: DecrementCommand;
}

/**
 * Registers the scripts on the limiter's connection (ioredis `defineCommand`: sent as EVALSHA,
 * loaded with EVAL only when the server answers NOSCRIPT) and returns the calls. The keys are
 * this module's own layout: `<RATE_LIMIT_KEY_PREFIX>…:<bucket>`, a plain string counter.
 */
export function defineRedisCounter(redis: Redis): RedisCounter {
  redis.defineCommand('rateLimitIncrement', { numberOfKeys: 1, lua: INCREMENT_SCRIPT });
  redis.defineCommand('rateLimitDecrement', { numberOfKeys: 1, lua: DECREMENT_SCRIPT });
  const commands = redis as unknown as {
    rateLimitIncrement: IncrementCommand;
    rateLimitDecrement: DecrementCommand;
  };
  return {
    increment: (key, ttlMs) => commands.rateLimitIncrement.call(redis, key, Math.ceil(ttlMs)),
    decrement: (key) => commands.rateLimitDecrement.call(redis, key),
  };
}
