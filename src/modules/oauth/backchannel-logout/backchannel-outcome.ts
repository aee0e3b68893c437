import { isDelivered } from '../../webhooks/webhook-message';
import { backoffMs, retryAfterMs } from '../../webhooks/retry-schedule';
import type { SendOutcome } from '../../webhooks/webhook-sender';

export const BACKCHANNEL_STATUSES = ['pending', 'delivered', 'refused', 'abandoned'] as const;
export type BackchannelStatus = (typeof BACKCHANNEL_STATUSES)[number];

/** A logout that has failed for this long since it was queued is abandoned. */
export const ABANDON_AFTER_MS = 24 * 60 * 60 * 1000;

/** Answers a receiver may want retried: timeouts and "too early / too many" (RFC 9110, 8470, 6585). */
const RETRIED_CLIENT_ERRORS = new Set([408, 425, 429]);

/** What an attempt leaves on its row. */
export interface AttemptResult {
  status: BackchannelStatus;
  attempts: number;
  /** When the next attempt is due; null once the row is final. */
  next: Date | null;
}

/**
 * The rules of docs/oidc.md, "Back-channel logout": a 2xx delivers; a 4xx but 408, 425 and 429
 * is the receiver refusing the token (section 2.8: 400 for a token it does not accept) and
 * final; anything else (5xx, 408, 425, 429, a 3xx since redirects are not followed, no answer)
 * is retried after the webhook backoff or the receiver's Retry-After (capped as webhooks'),
 * until 24 hours after the logout was queued, when it is abandoned.
 */
export function attemptResult(
  outcome: SendOutcome,
  attemptsBefore: number,
  queuedAt: Date,
  now: Date,
): AttemptResult {
  const attempts = attemptsBefore + 1;
  if (isDelivered(outcome.status)) return { status: 'delivered', attempts, next: null };
  const status = outcome.status;
  if (status !== null && status >= 400 && status < 500 && !RETRIED_CLIENT_ERRORS.has(status)) {
    return { status: 'refused', attempts, next: null };
  }
  if (now.getTime() - queuedAt.getTime() >= ABANDON_AFTER_MS) {
    return { status: 'abandoned', attempts, next: null };
  }
  const wait = retryAfterMs(outcome.retryAfter, now) ?? backoffMs(attempts);
  return { status: 'pending', attempts, next: new Date(now.getTime() + wait) };
}
