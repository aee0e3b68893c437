import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable } from '../../common/errors/connection-errors';

/** A SQLSTATE: five digits or upper-case letters; its first two are its class. */
const SQLSTATE = /^[0-9A-Z]{5}$/;

/**
 * The `class` label of a failed statement: `timeout` for the driver's own timers, `connection`
 * for an unreachable server (connection-errors.ts: network errors, SQLSTATE class 08, 57P01-03,
 * 53300), else the SQLSTATE's class (`23` integrity constraint, `40`
 * transaction rollback, `57` operator intervention such as statement_timeout…), or `other`. At most
 * the few dozen classes PostgreSQL defines plus three.
 */
export function statementErrorClass(error: unknown): string {
  const cause = error instanceof QueryFailedError ? (error.driverError as unknown) : error;
  const { code, message } = (cause ?? {}) as { code?: unknown; message?: unknown };
  if (typeof message === 'string' && /timeout/i.test(message)) return 'timeout';
  if (isDatabaseUnavailable(error)) return 'connection';
  return typeof code === 'string' && SQLSTATE.test(code) ? code.slice(0, 2) : 'other';
}
