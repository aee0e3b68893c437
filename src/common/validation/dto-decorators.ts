import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { getMetadataStorage, IsBoolean, IsInt, Max, Min, ValidateIf } from 'class-validator';

/**
 * Validates the property only when the field was sent. Unlike class-validator's IsOptional,
 * `null` is a value here (of the wrong type): `{"enabled": null}` is refused, not ignored.
 */
export const IfPresent = (): PropertyDecorator =>
  ValidateIf((_object: object, value: unknown) => value !== undefined);

const AT_LEAST_ONE_FIELD = Symbol('validation:at-least-one-field');

/** On a body DTO: a body without any of its fields is 400 empty_body (a PATCH that changes nothing). */
export const AtLeastOneField = (): ClassDecorator => (target) => {
  Reflect.defineMetadata(AT_LEAST_ONE_FIELD, true, target);
};

/** The fields an AtLeastOneField DTO declares, in declaration order; undefined for any other. */
export function atLeastOneFieldOf(dto: object): string[] | undefined {
  if (Reflect.getMetadata(AT_LEAST_ONE_FIELD, dto) !== true) return undefined;
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(
    dto as new () => object,
    '',
    true,
    false,
  );
  return [...new Set(metadatas.map((metadata) => metadata.propertyName))];
}

interface IntParamOptions {
  max: number;
  /** Above `max`: the value used is `max` (the response shows it) instead of a refusal. */
  clamp?: boolean;
  default?: number;
  description?: string;
}

/** Digits only: `' 1'`, `'1.5'`, `'-1'`, `''` and `'1e3'` stay text and fail the integer check. */
const digitsToNumber = (value: unknown): unknown =>
  typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;

/**
 * A positive integer query parameter. Zero, negatives, fractions and non-digits are refused;
 * above `max` it is refused, or clamped to `max` with `clamp` (a digit string too long to be
 * a number is above any maximum).
 */
export const PositiveIntParam = (options: IntParamOptions): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      minimum: 1,
      ...(options.clamp ? {} : { maximum: options.max }),
      default: options.default,
      description: options.description,
    }),
    Transform(({ value }: { value: unknown }) => {
      const number = digitsToNumber(value);
      return options.clamp && typeof number === 'number' ? Math.min(number, options.max) : number;
    }),
    IfPresent(),
    IsInt({ message: '$property must be a positive integer' }),
    Min(1, { message: '$property must be a positive integer' }),
    ...(options.clamp
      ? []
      : [Max(options.max, { message: `$property must be at most ${options.max}` })]),
  );

/** A `true` / `false` query parameter (exactly those words: `TRUE`, `1` and `yes` are refused). */
export const BooleanParam = (description?: string): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({ type: 'boolean', description }),
    Transform(({ value }: { value: unknown }) =>
      value === 'true' ? true : value === 'false' ? false : value,
    ),
    IfPresent(),
    IsBoolean({ message: '$property must be true or false' }),
  );
