import type { OAuthError } from '../../protocol/oauth-error';

/**
 * One rule of a successful code exchange or refresh (a file of token/rules/): its condition,
 * which the one statement of the fast path enforces, and the error that names it when the
 * statement issued nothing. Defined once, in the step's file; the statements are assembled from
 * the registries in registries.ts, so a step cannot exist without being enforced
 * (registries.spec.ts).
 */
export interface TokenStep<Row, Context> {
  /** Distinct within its registry; the statement reports the rule's outcome as `ok_<name>`. */
  readonly name: string;
  /**
   * SQL, true when the rule holds, over the statement's aliases and named parameters
   * (`:now`; see the statement's INPUTS, bound by name). NULL counts as failing.
   */
  readonly holds: string;
  /** The error when `holds` was not true for `row` (may act first, e.g. revoke a family). */
  failure(row: Row, context: Context): OAuthError | Promise<OAuthError>;
}

/** A statement's outcome of each step: `ok_<name>`. */
export type StepOutcomes = Record<string, unknown>;

/** `ok_<name>`, the column that carries a step's outcome. */
export const outcomeColumn = (step: { name: string }): string => `ok_${step.name}`;

/** The select-list entries reporting each step's outcome (NULL becomes false). */
export const outcomeColumns = (steps: readonly { name: string; holds: string }[]): string =>
  steps.map((s) => `COALESCE(${s.holds}, false) AS ${outcomeColumn(s)}`).join(',\n     ');

/** Every step's condition, ANDed: the guard of the fast path's writes. */
export const allHold = (steps: readonly { holds: string }[]): string =>
  steps.map((s) => `(${s.holds})`).join('\n       AND ');

/**
 * The error of the first step whose outcome in `row` is not true, in registry order (the order
 * in which the step-by-step path used to check them); null when every step held.
 */
export async function firstFailure<Row extends StepOutcomes, Context>(
  steps: readonly TokenStep<Row, Context>[],
  row: Row,
  context: Context,
): Promise<OAuthError | null> {
  for (const step of steps) {
    if (row[outcomeColumn(step)] !== true) return step.failure(row, context);
  }
  return null;
}
