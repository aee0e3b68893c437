import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidatorOptions } from 'class-validator';
import { AppError } from '../errors/app-error';
import { ErrorCode } from '../errors/error-code';
import { inputProblem } from './control-characters';
import { atLeastOneFieldOf } from './dto-decorators';
import { MAX_NESTING_DEPTH } from './nesting-depth';
import { invalidBody, invalidQuery, requestError, type RequestSource } from './request-errors';

/** A DTO class: validation decorators (class-validator) and its OpenAPI schema (@ApiProperty). */
export type Dto<T extends object> = new () => T;

const OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  validationError: { target: false, value: false },
};

/**
 * The one reader of request bodies and query strings (docs/errors.md, "Request bodies"):
 * `value` becomes an instance of `dto` (class-transformer, with its @Transform steps), checked by
 * its class-validator decorators, or the request is refused in the documented order: not a JSON
 * object → invalid_body (a query parameter given twice → invalid_query); objects or arrays nested
 * deeper than MAX_NESTING_DEPTH → invalid_body (invalid_query); a control character in
 * any name or string value (control-characters.ts) → invalid_body (invalid_query); unknown names →
 * unknown_field with `fields` (invalid_query); a wrong value → invalid_body (invalid_query);
 * an AtLeastOneField DTO without any field → empty_body. Synchronous, so the pipes of one
 * handler's parameters report in parameter order.
 */
export function validateRequest<T extends object>(
  dto: Dto<T>,
  value: unknown,
  source: RequestSource,
): T {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw source === 'body'
      ? invalidBody('The body must be a JSON object (Content-Type: application/json)')
      : invalidQuery('The query string is malformed');
  }
  if (source === 'query') refuseRepeated(value as Record<string, unknown>);
  // One walk finds both: nesting too deep first, then a control character.
  const problem = inputProblem(value, MAX_NESTING_DEPTH);
  if (problem === 'too_deep') {
    const why = `nests objects or arrays deeper than ${MAX_NESTING_DEPTH} levels`;
    throw source === 'body' ? invalidBody(`The body ${why}`) : invalidQuery(`The query ${why}`);
  }
  if (problem === 'control_character') throw controlCharacter(source);
  const instance = plainToInstance(dto, value);
  const errors = validateSync(instance, OPTIONS);
  if (errors.length > 0) throw requestError(errors, source);
  const fields = atLeastOneFieldOf(dto);
  if (fields?.every((field) => (instance as Record<string, unknown>)[field] === undefined)) {
    throw new AppError(ErrorCode.EmptyBody, `Send at least one of ${fields.join(', ')}`);
  }
  return instance;
}

/** Express makes a repeated name an array: a parameter is given once, as a plain value. */
function refuseRepeated(query: Record<string, unknown>): void {
  const repeated = Object.keys(query).filter((name) => typeof query[name] !== 'string');
  if (repeated.length > 0) {
    throw invalidQuery(`${repeated.join(', ')}: give each parameter once, as a plain value`);
  }
}

/** NUL and the other control characters: refused before any name or value is looked at. */
const controlCharacter = (source: RequestSource): AppError =>
  source === 'body'
    ? invalidBody(`A field holds a control character ${CONTROL_RANGES}`)
    : invalidQuery(`A query parameter holds a control character ${CONTROL_RANGES}`);

const CONTROL_RANGES = '(U+0000 to U+001F, U+007F to U+009F)';

const isDto = (metatype: unknown): metatype is Dto<object> =>
  typeof metatype === 'function' &&
  ![Object, String, Number, Boolean, Array].includes(metatype as never);

/**
 * The global pipe (APP_PIPE): a `@Body()` or `@Query()` parameter typed with a DTO class is
 * validated by validateRequest; any other parameter (`unknown`, strings, custom decorators)
 * passes through untouched.
 */
@Injectable()
export class RequestValidationPipe implements PipeTransform {
  transform(value: unknown, { type, metatype }: ArgumentMetadata): unknown {
    if ((type !== 'body' && type !== 'query') || !isDto(metatype)) return value;
    return validateRequest(metatype, value, type);
  }
}
