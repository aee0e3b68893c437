import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  HttpStatus,
  Logger,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { QueryFailedError } from 'typeorm';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  isDatabaseUnavailable,
  logDatabaseUnavailable,
} from './connection-errors';
import { appErrorForBody } from '../http/json-body';
import { BodyError } from '../http/request-body';
import { AppError } from './app-error';
import { ERROR_STATUS, ErrorCode } from './error-code';
import { logRequestFailure } from './request-failure-log';

/**
 * Framework exceptions (e.g. Nest's 404 for an unknown route) keep their own status: these
 * statuses name their code from ERROR_STATUS; any other gets invalid_request or internal_error.
 */
const CODE_BY_STATUS = new Map<number, ErrorCode>(
  [
    ErrorCode.NotFound,
    ErrorCode.MethodNotAllowed,
    ErrorCode.PayloadTooLarge,
    ErrorCode.UnsupportedMediaType,
    ErrorCode.Conflict,
    ErrorCode.ServiceUnavailable,
  ].map((code) => [ERROR_STATUS[code], code]),
);

/** A response to send: status and `{error, message, …}` body. */
type Rendered = { status: number; body: Record<string, unknown> };

/** Human text for framework exceptions; never their raw message, which may echo input. */
const MESSAGE_BY_STATUS = new Map<number, string>([
  [HttpStatus.NOT_FOUND, 'No such route'],
  [HttpStatus.METHOD_NOT_ALLOWED, 'Method not allowed'],
  [HttpStatus.PAYLOAD_TOO_LARGE, 'Request body too large'],
  [HttpStatus.UNSUPPORTED_MEDIA_TYPE, 'Unsupported content type'],
  [HttpStatus.SERVICE_UNAVAILABLE, 'Service unavailable'],
]);

function codeForStatus(status: number): ErrorCode {
  return (
    CODE_BY_STATUS.get(status) ??
    (status >= 500 ? ErrorCode.InternalError : ErrorCode.InvalidRequest)
  );
}

function messageForStatus(status: number): string {
  return MESSAGE_BY_STATUS.get(status) ?? (status >= 500 ? 'Internal server error' : 'Bad request');
}

/**
 * The one global filter: every error leaves as `{error, message}` (docs/contract/README.md#errors).
 * Unexpected failures are logged with the request id and answered without stack, SQL or input.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const request = http.getRequest<Request>();
    const { status, body } = this.describe(exception, request);
    if (response.headersSent) return;
    // An error that names its own wait (`retry_after`) says it in the header too.
    const retryAfter =
      typeof body.retry_after === 'number'
        ? body.retry_after
        : status === 503
          ? DATABASE_RETRY_AFTER_SECONDS
          : undefined;
    if (retryAfter !== undefined) response.setHeader('Retry-After', String(retryAfter));
    response.status(status).json(body);
  }

  private describe(exception: unknown, request: Request): Rendered {
    // Refused before routing (src/common/http/request-body.ts), already logged as a warning.
    if (exception instanceof BodyError) exception = appErrorForBody(exception);
    if (exception instanceof AppError) {
      if (exception.status >= 500) this.logFailure(exception, request);
      return { status: exception.status, body: exception.toBody() };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status >= 500) this.logFailure(exception, request);
      return { status, body: { error: codeForStatus(status), message: messageForStatus(status) } };
    }
    if (isDatabaseUnavailable(exception)) {
      logDatabaseUnavailable(this.logger, exception, request);
      return this.failure(ErrorCode.DatabaseUnavailable, 'The database is unavailable');
    }
    this.logFailure(exception, request);
    if (exception instanceof QueryFailedError) {
      return this.failure(ErrorCode.QueryFailed, 'Internal query failure');
    }
    return this.failure(ErrorCode.InternalError, 'Internal server error');
  }

  private failure(code: ErrorCode, message: string): Rendered {
    return { status: ERROR_STATUS[code], body: { error: code, message } };
  }

  private logFailure(exception: unknown, request: Request): void {
    logRequestFailure(this.logger, exception, request, 'Request failed');
  }
}
