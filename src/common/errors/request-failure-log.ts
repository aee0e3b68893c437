import type { Logger } from '@nestjs/common';
import type { Request } from 'express';
import { QueryFailedError } from 'typeorm';

/**
 * The error line of a request that failed (a 5xx), as every exception filter writes it (the
 * application and console APIs', the OAuth endpoints', the browser pages'): the error, the
 * request's id and its route. A failed query is logged by its message and SQLSTATE code only,
 * never its SQL or its parameters, which may hold hashes or personal data (docs/operations.md,
 * "Logs").
 */
export function logRequestFailure(
  logger: Pick<Logger, 'error'>,
  exception: unknown,
  request: Request,
  message: string,
): void {
  const id = (request as Request & { id?: unknown }).id;
  const err =
    exception instanceof QueryFailedError
      ? { message: exception.message, code: (exception.driverError as { code?: string }).code }
      : exception;
  logger.error({ err, requestId: id, route: `${request.method} ${request.path}` }, message);
}
