import type { QueryResultRow } from 'pg';
import type { DataSource } from 'typeorm';
import { preparedQuery } from '../../database/prepared-query';
import type { OAuthError } from './shared/oauth-error';

/**
 * One rule of a successful code exchange or refresh (src/modules/oauth/steps/): its condition,
 * which the one statement of the fast path enforces, and the error that names it when the
 * statement issued nothing. Defined once, in the step's file; the statements are assembled from
 * the registries in token-steps.ts, so a step cannot exist without being enforced
 * (token-steps.spec.ts).
 */
export interface TokenStep<Row, Context> {
  /** Distinct within its registry; the statement reports the rule's outcome as `ok_<name>`. */
  readonly name: string;
  /**
   * SQL, true when the rule holds, over the statement's aliases and named parameters
   * (`:now`; see the statement's PARAMS). NULL counts as failing.
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

/**
 * Replaces each named parameter `:name` by its positional `$n` from `params`. A `::type` cast
 * is left alone; an unknown name is a programming error and throws at module load.
 */
export function bindParams(sql: string, params: Readonly<Record<string, string>>): string {
  return sql.replace(/(?<![:\w]):([a-z][A-Za-z]*)\b/g, (_, name: string) => {
    const position = params[name];
    if (position === undefined) throw new Error(`unknown statement parameter :${name}`);
    return position;
  });
}

/** A statement's named parameters and their SQL types, in the order of its positional `$n`. */
export type StatementInputs = Readonly<Record<string, string>>;

/** The single-row form: `:name` is `$n`, n its position in `inputs`. */
export const positionalParams = (inputs: StatementInputs): Record<string, string> =>
  Object.fromEntries(Object.keys(inputs).map((name, i) => [name, `$${i + 1}`]));

/** The column of the batch input row `i` that carries parameter `name` (`codeHash` → in_code_hash). */
const inputColumn = (name: string): string =>
  `in_${name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)}`;

/**
 * The batch form of the same statement (docs/performance-oauth.md, "Group commit"):
 * each `:name` reads its column of the input row `i`, so the steps' conditions are evaluated per
 * item. See batchInputSql for `i`.
 */
export const batchParams = (inputs: StatementInputs): Record<string, string> =>
  Object.fromEntries(Object.keys(inputs).map((name) => [name, `i.${inputColumn(name)}`]));

/**
 * The FROM item `i` of a batch statement: one row per item, from one array parameter per input
 * (`$n::type[]`, in the order of `inputs`), and `ord`, the item's 1-based position.
 */
export const batchInputSql = (inputs: StatementInputs): string => {
  const names = Object.keys(inputs);
  const arrays = names.map((name, i) => `$${i + 1}::${inputs[name]}[]`).join(', ');
  return `unnest(${arrays}) WITH ORDINALITY AS i(${names.map(inputColumn).join(', ')}, ord)`;
};

/** The batch statement's values: the items' single-row values (each in `$n` order) by column. */
export const batchValues = (rows: readonly (readonly unknown[])[]): unknown[][] =>
  (rows[0] ?? []).map((_, column) => rows.map((row) => row[column]));

/**
 * Values in the order of their first element (the code or refresh token hash), with each one's
 * position in the caller's list: batches lock their rows in one order, so two batches (of two
 * instances) waiting for each other's rows cannot deadlock in the usual plan.
 */
export function inHashOrder(values: unknown[][]): { values: unknown[]; index: number }[] {
  return values
    .map((v, index) => ({ values: v, index, hash: v[0] as string }))
    .sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0))
    .map(({ values: v, index }) => ({ values: v, index }));
}

/**
 * Runs a batch statement for `items` (each one's single-row values, its hash first) with the rows
 * in hash order, and answers in the caller's order: each item's row by its `ord`, or null where
 * the statement returned none for it. Rejects, having changed nothing, if the statement fails.
 */
export async function runBatchStatement<Row extends QueryResultRow>(
  dataSource: DataSource,
  name: string,
  text: string,
  items: unknown[][],
): Promise<(Row | null)[]> {
  const ordered = inHashOrder(items);
  const rows = await preparedQuery<Row & { ord: string }>(
    dataSource,
    name,
    text,
    batchValues(ordered.map((item) => item.values)),
  );
  const answers: (Row | null)[] = items.map(() => null);
  for (const { ord, ...row } of rows)
    answers[ordered[Number(ord) - 1].index] = row as unknown as Row;
  return answers;
}
