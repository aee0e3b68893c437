import type { ValidationError } from 'class-validator';
import { AppError } from '../errors/app-error';
import { ErrorCode } from '../errors/error-code';

/** Where a DTO's values came from: the JSON body or the query string. */
export type RequestSource = 'body' | 'query';

/** class-validator's constraint for a property the DTO does not declare (forbidNonWhitelisted). */
const UNKNOWN_PROPERTY = 'whitelistValidation';

/**
 * A refused DTO in the service's codes, in the order docs/errors.md documents: every unknown
 * name first (a body's `unknown_field` lists them all in `fields`), then the first wrong value
 * (`invalid_body`). A query string answers `invalid_query` for both.
 */
export function requestError(errors: ValidationError[], source: RequestSource): AppError {
  const unknown = errors
    .filter((error) => error.constraints?.[UNKNOWN_PROPERTY] !== undefined)
    .map((error) => error.property);
  if (source === 'query') {
    return unknown.length > 0
      ? invalidQuery(`Unknown query parameter: ${unknown.join(', ')}`)
      : invalidQuery(firstMessage(errors));
  }
  if (unknown.length > 0) {
    return new AppError(ErrorCode.UnknownField, `Unknown fields: ${unknown.join(', ')}`, {
      fields: unknown,
    });
  }
  return invalidBody(firstMessage(errors));
}

export const invalidBody = (message: string): AppError =>
  new AppError(ErrorCode.InvalidBody, message);

export const invalidQuery = (message: string): AppError =>
  new AppError(ErrorCode.InvalidQuery, message);

/** The first failed constraint's message, depth first; a nested one names its path. */
function firstMessage(errors: ValidationError[], path = ''): string {
  for (const error of errors) {
    const message = Object.values(error.constraints ?? {})[0];
    if (message !== undefined) return path === '' ? message : `${path}: ${message}`;
    const nested = firstMessage(error.children ?? [], `${path}${path ? '.' : ''}${error.property}`);
    if (nested !== '') return nested;
  }
  return path === '' ? 'The request is malformed' : '';
}
