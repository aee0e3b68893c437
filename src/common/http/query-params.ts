import { AppError } from '../errors/app-error';
import { ErrorCode } from '../errors/error-code';

/** Raw query values as Express parses them: strings, or arrays for repeated names. */
export type RawQuery = Record<string, unknown>;

export const invalidQuery = (message: string): AppError =>
  new AppError(ErrorCode.InvalidQuery, message);

/** The single string value of a parameter; a repeated or nested parameter is malformed. */
export function singleValue(query: RawQuery, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidQuery(`${name} must be given once, as a plain value`);
  return value;
}

const DIGITS = /^\d{1,18}$/;

/**
 * A positive integer parameter. Above `max` it is clamped (the response shows the value
 * used); zero, negatives, fractions and non-digits are malformed. A digit string too long
 * to be a number is "above its maximum" too.
 */
export function positiveIntParam(
  query: RawQuery,
  name: string,
  fallback: number,
  max: number,
): number {
  const raw = singleValue(query, name);
  if (raw === undefined) return fallback;
  if (/^\d+$/.test(raw) && !DIGITS.test(raw.replace(/^0+(?=\d)/, ''))) return max;
  if (!DIGITS.test(raw) || Number(raw) < 1) {
    throw invalidQuery(`${name} must be a positive integer`);
  }
  return Math.min(Number(raw), max);
}
