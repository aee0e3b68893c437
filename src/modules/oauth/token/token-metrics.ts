import { HttpException } from '@nestjs/common';
import type { Request } from 'express';
import type { Metrics, TokenGrantLabel } from '../../../common/metrics/metrics';
import { isDatabaseUnavailable } from '../../../database/connection-errors';
import { OAuthError } from '../protocol/oauth-error';

const GRANT_TYPES: ReadonlySet<string> = new Set(['authorization_code', 'refresh_token']);

/**
 * Counts each answer of the token endpoint (and its /api/oidc alias) by grant type and outcome:
 * `ok`, or the error code the client receives (OAuthExceptionFilter's mapping). Nothing when
 * metrics are off (docs/operations.md, "Metrics").
 *
 * A function the handlers call rather than a Nest interceptor: a route with an interceptor runs
 * its handler through an RxJS pipeline and an AsyncResource on every request, metrics on or off
 * (docs/performance/oauth.md, "The token route without an interceptor").
 */
export async function countTokenRequest<T>(
  metrics: Metrics,
  req: Request,
  answer: () => Promise<T>,
): Promise<T> {
  if (!metrics.enabled) return answer();
  const grant = grantLabel(req);
  try {
    const response = await answer();
    metrics.tokenRequest(grant, 'ok');
    return response;
  } catch (error) {
    metrics.tokenRequest(grant, errorCode(error));
    throw error;
  }
}

/** The grant_type sent, when it is one the endpoint knows (a repeated one is not). */
function grantLabel(req: Request): TokenGrantLabel {
  const sent = (req.body as Record<string, unknown> | undefined)?.grant_type;
  if (sent === undefined) return 'missing';
  return typeof sent === 'string' && GRANT_TYPES.has(sent)
    ? (sent as TokenGrantLabel)
    : 'unsupported';
}

/** The `error` of the answer, as OAuthExceptionFilter renders `error`. */
function errorCode(error: unknown): string {
  if (error instanceof OAuthError) return error.error;
  if (error instanceof HttpException && error.getStatus() < 500) return 'invalid_request';
  return isDatabaseUnavailable(error) ? 'temporarily_unavailable' : 'server_error';
}
