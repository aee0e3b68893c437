import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';

/** The JSON body of a console request as an object of known fields (400 otherwise). */
export type BodyFields = Record<string, unknown>;

export const invalidBody = (message: string): AppError =>
  new AppError(ErrorCode.InvalidBody, message);

/**
 * A JSON object holding only `allowed` fields: not an object → 400 invalid_body; another field
 * → 400 unknown_field with `fields` (as PATCH /api/v1/app/users does: no mass assignment).
 */
export function objectBody(body: unknown, allowed: readonly string[]): BodyFields {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalidBody('The body must be a JSON object');
  }
  const record = body as BodyFields;
  const unknown = Object.keys(record).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) {
    throw new AppError(ErrorCode.UnknownField, `Unknown fields: ${unknown.join(', ')}`, {
      fields: unknown,
    });
  }
  return record;
}

export function optionalString(body: BodyFields, name: string, max: number): string | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.length > max) {
    throw invalidBody(`${name} must be a string of at most ${max} characters`);
  }
  return value;
}

export function optionalBoolean(body: BodyFields, name: string): boolean | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw invalidBody(`${name} must be true or false`);
  return value;
}

export function optionalStringList(
  body: BodyFields,
  name: string,
  maxItems: number,
  maxLength: number,
): string[] | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (
    !Array.isArray(value) ||
    value.length > maxItems ||
    !value.every((item) => typeof item === 'string' && item.length <= maxLength)
  ) {
    throw invalidBody(`${name} must be a list of at most ${maxItems} strings`);
  }
  return value as string[];
}

export function optionalEnum<T extends string>(
  body: BodyFields,
  name: string,
  values: readonly T[],
): T | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) {
    throw invalidBody(`${name} must be one of ${values.join(', ')}`);
  }
  return value as T;
}

/** A path's numeric id (keys), or null when it cannot name a row: the caller answers 404. */
export function pathId(raw: string): number | null {
  if (!/^[1-9][0-9]{0,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id <= 2_147_483_647 ? id : null;
}
