/**
 * The one reading of the ids that paths and forms carry as text (`:applicationId`, `:endpointId`,
 * `:keyId`, an upstream identity's `:id`, `:userId`, a confirmation's target). Every such id
 * becomes a number here and nowhere else; the caller chooses its answer to a non-id (404 like an
 * unknown row, or 400 invalid_user_id), which this never decides.
 */

/** Ids of `integer` columns (applications, keys, webhooks, upstream identities: serials). */
export const MAX_INTEGER_ID = 2_147_483_647;
/** Ids of `bigint` columns (users, events). */
export const MAX_BIGINT_ID = 9_223_372_036_854_775_807n;

export interface DecimalIdOptions {
  /**
   * Also `0` and leading zeros (`007` is 7), within as many characters as `max` has digits: the
   * `:userId` of the contract, "decimal digits within the bigint range". Otherwise a positive
   * integer written without a leading zero.
   */
  anyDigits?: boolean;
}

/**
 * `value` as an id from 1 (or 0 with `anyDigits`) to `max`, or null when it cannot be one:
 * anything but ASCII decimal digits (a sign, a space, a fraction, an exponent), a leading zero,
 * the empty text, or above `max`. A number is read as its decimal text.
 */
export function decimalId(
  value: unknown,
  max: bigint,
  { anyDigits = false }: DecimalIdOptions = {},
): bigint | null {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string') return null;
  if (!(anyDigits ? /^[0-9]+$/ : /^[1-9][0-9]*$/).test(text)) return null;
  // Checked before BigInt: a long digit string is refused without being converted.
  if (text.length > String(max).length) return null;
  const id = BigInt(text);
  return id <= max ? id : null;
}

/**
 * A positive integer id up to `max` (by default that of an `integer` column) as a number, or
 * null when `value` cannot be one (see decimalId).
 */
export function positiveIntId(value: unknown, max: number = MAX_INTEGER_ID): number | null {
  if (!Number.isSafeInteger(max)) throw new RangeError(`positiveIntId: ${max} is not exact`);
  const id = decimalId(value, BigInt(max));
  return id === null ? null : Number(id);
}
