import type { Response } from 'express';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import type { MessageKey } from '../../common/i18n/i18n';
import type { FixedWindow } from './fixed-window';

/** docs/contract/README.md#rate-limits header names. X-RateLimit-Reset is Unix epoch seconds (docs/rate-limit.md). */
export const HEADER_LIMIT = 'X-RateLimit-Limit';
export const HEADER_REMAINING = 'X-RateLimit-Remaining';
export const HEADER_RESET = 'X-RateLimit-Reset';
export const HEADER_RETRY_AFTER = 'Retry-After';

export interface BucketState {
  limit: number;
  /** Requests counted in the window, this one included. */
  count: number;
  window: FixedWindow;
}

export function setRateLimitHeaders(
  response: Response,
  { limit, count, window }: BucketState,
): void {
  response.setHeader(HEADER_LIMIT, String(limit));
  response.setHeader(HEADER_REMAINING, String(Math.max(0, limit - count)));
  response.setHeader(HEADER_RESET, String(window.resetEpochSeconds));
}

/**
 * A throttler's 429 rate_limited: the API's English `message` in its JSON body, and for a page
 * the message key of its words (`pageMessage`, rendered in the page's language), so that a page
 * never maps the English text back to its words.
 */
export class RateLimitedError extends AppError {
  constructor(
    message: string,
    retryAfterSeconds: number,
    readonly pageMessage: MessageKey | undefined,
  ) {
    super(ErrorCode.RateLimited, message, { retry_after: retryAfterSeconds });
  }
}

/** 429 rate_limited with `retry_after` (integer seconds, as Retry-After) (docs/contract/README.md#rate-limits). */
export function rateLimited(
  response: Response,
  window: FixedWindow,
  refusal: { message: string; pageMessage?: MessageKey },
): RateLimitedError {
  response.setHeader(HEADER_RETRY_AFTER, String(window.secondsToReset));
  return new RateLimitedError(refusal.message, window.secondsToReset, refusal.pageMessage);
}
