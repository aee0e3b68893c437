/** Spec section 8 counts requests per minute: one fixed window per wall-clock minute. */
export const WINDOW_MS = 60_000;

/**
 * Counters outlive their window by this much, so an instance whose clock lags a little
 * still finds the counter the others are filling (NTP keeps skew far below this).
 */
const SKEW_ALLOWANCE_MS = 5_000;

export interface FixedWindow {
  /** Minutes since the Unix epoch; part of every bucket key, so a new window starts at zero. */
  index: number;
  /** End of the window, Unix epoch seconds: the value of X-RateLimit-Reset. */
  resetEpochSeconds: number;
  /** Whole seconds until the window ends, at least 1: Retry-After and retry_after. */
  secondsToReset: number;
  /** How long the storage keeps the counter (and its block marker), milliseconds. */
  storageTtlMs: number;
}

/**
 * The window containing `now`. Windows are aligned to the epoch, so every instance agrees
 * on them without coordination and reset is the same instant for all keys of an application.
 */
export function windowAt(now: Date): FixedWindow {
  const ms = now.getTime();
  const index = Math.floor(ms / WINDOW_MS);
  const endMs = (index + 1) * WINDOW_MS;
  return {
    index,
    resetEpochSeconds: endMs / 1000,
    secondsToReset: Math.max(1, Math.ceil((endMs - ms) / 1000)),
    storageTtlMs: endMs - ms + SKEW_ALLOWANCE_MS,
  };
}
