import {
  CallHandler,
  ExecutionContext,
  HttpException,
  Inject,
  Injectable,
  NestInterceptor,
} from '@nestjs/common';
import type { Request } from 'express';
import { Observable, tap } from 'rxjs';
import { Metrics, type TokenGrantLabel } from '../../../common/metrics/metrics';
import { isDatabaseUnavailable } from '../../../database/connection-errors';
import { OAuthError } from '../protocol/oauth-error';

const GRANT_TYPES: ReadonlySet<string> = new Set(['authorization_code', 'refresh_token']);

/**
 * Counts each answer of the token endpoint (and its /api/oidc alias) by grant type and outcome:
 * `ok`, or the error code the client receives (OAuthExceptionFilter's mapping). Nothing when
 * metrics are off (docs/operations.md, "Metrics").
 */
@Injectable()
export class TokenMetricsInterceptor implements NestInterceptor {
  constructor(@Inject(Metrics) private readonly metrics: Metrics) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (!this.metrics.enabled) return next.handle();
    const grant = grantLabel(context.switchToHttp().getRequest<Request>());
    return next.handle().pipe(
      tap({
        next: () => this.metrics.tokenRequest(grant, 'ok'),
        error: (error: unknown) => this.metrics.tokenRequest(grant, errorCode(error)),
      }),
    );
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
