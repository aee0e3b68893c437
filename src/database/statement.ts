import type { QueryResultRow } from 'pg';
import type { DataSource } from 'typeorm';
import { preparedQuery } from './prepared-query';

// How a one-statement hot path (the token endpoint's grants) is bound and run, singly or for a
// batch of requests (docs/performance-oauth.md, "Group commit"). Nothing here knows of OAuth: the
// grants (src/modules/oauth/token/grants/) name the inputs and the rules.

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
