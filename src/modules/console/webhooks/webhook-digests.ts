import { sha256Hex } from '../../../common/crypto/hash';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { parseRfc3339 } from '../../events/event-query';
import type { ReplayFrom } from '../../webhooks/webhook-endpoints.service';

/**
 * The change digests of the webhook confirmations (docs/console.md, "The confirmation
 * exchange"): a token for webhook.create or webhook.update_url confirms one URL, a token for
 * webhook.replay one start, and no other.
 */

/** webhook.create, webhook.update_url: the SHA-256 of the URL as the URL rule canonicalises it. */
export function webhookUrlDigest(canonicalUrl: string): string {
  return sha256Hex(JSON.stringify(['url', canonicalUrl]));
}

/** webhook.replay: the SHA-256 of where the replay starts. */
export function replayDigest(from: ReplayFrom): string {
  return sha256Hex(
    JSON.stringify(
      'fromEventId' in from ? ['fromEventId', from.fromEventId] : ['fromTime', from.fromTime],
    ),
  );
}

/**
 * The start of a replay from a body: exactly one of fromEventId (a positive integer, checked by
 * the DTO) and fromTime (RFC 3339); 400 invalid_request otherwise.
 */
export function replayFromBody(body: { fromEventId?: number; fromTime?: string }): ReplayFrom {
  const { fromEventId, fromTime } = body;
  if ((fromEventId === undefined) === (fromTime === undefined)) {
    throw invalid('a replay needs exactly one of fromEventId and fromTime');
  }
  if (fromEventId !== undefined) {
    if (!Number.isSafeInteger(fromEventId) || fromEventId < 1) {
      throw invalid('fromEventId must be an event id (a positive integer)');
    }
    return { fromEventId: String(fromEventId) };
  }
  if (typeof fromTime !== 'string' || parseRfc3339(fromTime) === undefined) {
    throw invalid('fromTime must be an RFC 3339 time, e.g. 2026-05-01T00:00:00Z');
  }
  return { fromTime: fromTime.toUpperCase() };
}

function invalid(message: string): AppError {
  return new AppError(ErrorCode.InvalidRequest, message);
}
