import type { Logger } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';

/** Seconds a client is asked to wait before retrying while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Socket-level failures of a connection to the server (Node's error codes). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENOENT', // the unix socket of the embedded database is gone
]);

/**
 * SQLSTATEs meaning "the server is not available", not "this query is wrong": class 08
 * (connection exception), 57P01-57P03 (admin/crash shutdown, cannot connect now) and 53300
 * (too many connections). PostgreSQL docs, appendix A.
 */
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;

/** node-postgres and pg-pool raise these as plain Errors without a code. */
const DRIVER_MESSAGES = [
  /^Connection terminated/, // "... unexpectedly", "... due to connection timeout"
  /^timeout exceeded when trying to connect$/,
  /^Query read timeout$/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
  /^Cannot use a pool after calling end on the pool$/,
];

/**
 * The one place that decides whether a failure means "the database is unreachable" (answered
 * 503 by every filter, reported by /health/ready) rather than a bug or a bad query (500).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const cause = error instanceof QueryFailedError ? (error.driverError as unknown) : error;
  return describes(cause) || describes((cause as { cause?: unknown } | undefined)?.cause);
}

function describes(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, errors } = error as {
    code?: unknown;
    message?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) {
    return true;
  }
  if (typeof message === 'string' && DRIVER_MESSAGES.some((pattern) => pattern.test(message))) {
    return true;
  }
  // Node reports a refused dual-stack connect as an AggregateError of one error per address.
  return Array.isArray(errors) && errors.some(describes);
}

/** One warning per refused request: the cause (no SQL, no parameters) and the route. */
export function logDatabaseUnavailable(
  logger: Pick<Logger, 'warn'>,
  error: unknown,
  request: { method: string; originalUrl: string; id?: unknown },
): void {
  const cause = error instanceof QueryFailedError ? (error.driverError as unknown) : error;
  const { code, message } = (cause ?? {}) as { code?: unknown; message?: unknown };
  logger.warn(
    {
      cause: { code, message },
      requestId: request.id,
      route: `${request.method} ${request.originalUrl.split('?')[0]}`,
    },
    'Database unavailable',
  );
}
