const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Delay before the n-th retry (n = 1, 2, …); past the list, every RETRY_EVERY (docs/webhooks.md). */
export const RETRY_DELAYS_MS = [
  5 * SECOND,
  30 * SECOND,
  2 * MINUTE,
  10 * MINUTE,
  30 * MINUTE,
  HOUR,
];
export const RETRY_EVERY_MS = 2 * HOUR;

/** The longest wait a receiver may ask for with Retry-After. */
export const MAX_RETRY_AFTER_MS = HOUR;

/** Jitter: a delay is stretched by up to this fraction, so endpoints that failed together spread out. */
const JITTER = 0.2;

/**
 * The wait after the `failures`-th failure in a row of one event: the schedule's delay with
 * up to 20 % jitter added (never less than the schedule says). `random` is Math.random's range.
 */
export function backoffMs(failures: number, random: number = Math.random()): number {
  const base = RETRY_DELAYS_MS[failures - 1] ?? RETRY_EVERY_MS;
  return Math.round(base * (1 + JITTER * random));
}

/**
 * The wait a Retry-After header asks for (RFC 9110 section 10.2.3: delay-seconds or an HTTP
 * date), capped at MAX_RETRY_AFTER_MS; undefined when absent or unreadable. A date in the
 * past means "now" (0).
 */
export function retryAfterMs(header: string | null, now: Date): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  let ms: number;
  if (/^\d+$/.test(value)) {
    ms = Number(value) * SECOND;
  } else {
    const at = Date.parse(value);
    if (Number.isNaN(at) || !/[a-z]/i.test(value)) return undefined;
    ms = Math.max(0, at - now.getTime());
  }
  return Math.min(ms, MAX_RETRY_AFTER_MS);
}
