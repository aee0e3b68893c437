/** docs/contract/README.md#rate-limits counts requests per minute: one fixed window per wall-clock minute. */
export const WINDOW_MS = 60_000;

/**
 * Counters are kept one whole window past the end of their own (whatever the window's length). Every key carries its window's
 * index, so keeping a counter longer never extends a window or carries counts over; it only
 * means that a request counted late still finds the counter the others filled: one from an
 * instance whose clock lags (NTP keeps skew far below a minute), or one that took long to
 * reach Redis on a busy machine. With 5 s, a key could expire while its window's requests were
 * still arriving and the count restarted from zero (rate-limit-instances admitted 900 of 1000
 * once, at load ≈ 7).
 */
export interface FixedWindow {
  /** Windows since the Unix epoch; part of every bucket key, so a new window starts at zero. */
  index: number;
  /** End of the window, Unix epoch seconds: the value of X-RateLimit-Reset. */
  resetEpochSeconds: number;
  /** Whole seconds until the window ends, at least 1: Retry-After and retry_after. */
  secondsToReset: number;
  /** How long the storage keeps the counter (and its block marker), milliseconds. */
  storageTtlMs: number;
}

/**
 * The window of `windowMs` (default: the application bucket's minute) containing `now`.
 * Windows are aligned to the epoch, so every instance agrees on them without coordination and
 * reset is the same instant for all keys of an application. The login throttle and the
 * anonymous-request quotas count in 15-minute windows of the same kind.
 */
export function windowAt(now: Date, windowMs: number = WINDOW_MS): FixedWindow {
  const ms = now.getTime();
  const index = Math.floor(ms / windowMs);
  const endMs = (index + 1) * windowMs;
  return {
    index,
    resetEpochSeconds: endMs / 1000,
    secondsToReset: Math.max(1, Math.ceil((endMs - ms) / 1000)),
    storageTtlMs: endMs - ms + windowMs,
  };
}
