import type { QueryResultRow } from 'pg';
import type { DataSource } from 'typeorm';
import { preparedQuery } from './prepared-query';

// How the hot paths' statements are bound and run: a builder writes its SQL with `:name`
// parameters (composed from fragments of several modules), declares the names, and passes its
// values as a name → value record; the text with `$n` placeholders and the values array in `$n`
// order are this file's business, never the caller's. A name the text uses but does not declare,
// or declares but does not use, fails when the statement is built (at module load); a record
// lacking a name or holding one the statement does not take fails on the call. Singly or for a
// batch of requests (docs/performance/oauth.md, "Group commit"). Nothing here knows a feature.

/** `:name`, not a `::type` cast. */
const NAMED_PARAMETER = /(?<![:\w]):([a-z][A-Za-z]*)\b/g;

/**
 * Replaces each named parameter `:name` of `sql` by `params[name]` (a `$n`, a column). The
 * substitution under statement() and batchStatement(); an unknown name throws.
 */
export function bindParams(sql: string, params: Readonly<Record<string, string>>): string {
  return sql.replace(NAMED_PARAMETER, (_, name: string) => {
    const position = params[name];
    if (position === undefined) throw new Error(`unknown statement parameter :${name}`);
    return position;
  });
}

/** The distinct `:name` parameters of `sql`, in order of first use. */
export function namedParameters(sql: string): string[] {
  return [...new Set([...sql.matchAll(NAMED_PARAMETER)].map((match) => match[1]))];
}

/** A statement's named parameters and their SQL types (the batch form's array types). */
export type StatementInputs = Readonly<Record<string, string>>;

/** The declared names of `inputs`, typed. */
export const inputNames = <I extends StatementInputs>(inputs: I): (keyof I & string)[] =>
  Object.keys(inputs);

/** `:name` is `$n`, n its position in `names`. */
export const positionalParams = (names: readonly string[]): Record<string, string> =>
  Object.fromEntries(names.map((name, i) => [name, `$${i + 1}`]));

/** A statement bound by name: its text as sent and the values of a call, in `$n` order. */
export interface Statement<N extends string> {
  /** The text with `$n` placeholders, exactly as sent (and rendered in `sql/`). */
  readonly text: string;
  /** The parameters in `$n` order. */
  readonly names: readonly N[];
  /** The values array of a call; throws if `args` lacks a name or has one the statement lacks. */
  values(args: Readonly<Record<N, unknown>>): unknown[];
}

/**
 * The statement of `sql` with the parameters `names` (`$1` … in that order): throws if the text
 * uses a name that is not declared or a declared name is unused.
 */
export function statement<N extends string>(sql: string, names: readonly N[]): Statement<N> {
  checkNames(sql, names);
  return {
    text: bindParams(sql, positionalParams(names)),
    names,
    values: (args) => valuesOf(names, args),
  };
}

/** The column of the batch input row `i` that carries parameter `name` (`codeHash` → in_code_hash). */
const inputColumn = (name: string): string =>
  `in_${name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)}`;

/** The batch form's `:name`: the column of the item row `i` (see batchInputSql). */
export const batchParams = (names: readonly string[]): Record<string, string> =>
  Object.fromEntries(names.map((name) => [name, `i.${inputColumn(name)}`]));

/**
 * The FROM item `i` of a batch statement: one row per item, from one array parameter per input
 * (`$n::type[]`, in the order of `inputs`), and `ord`, the item's 1-based position.
 *
 * Each array is read through a scalar subquery, `(SELECT $n::type[])`, so that the planner cannot
 * see its length. Given the array itself, it plans each execution for that batch's exact size,
 * and that custom plan always looks cheaper than the generic one (made for 10 items). So
 * PostgreSQL planned the statement on every execution, which took longer than running it
 * (introspection: about 1.5 ms against 0.2 ms). Through the subquery every plan assumes 10
 * items, and after its first five executions PostgreSQL keeps the generic plan of the prepared
 * statement (docs/performance/oauth.md, "Batch statements planned once").
 */
export const batchInputSql = (inputs: StatementInputs): string => {
  const names = Object.keys(inputs);
  const arrays = names.map((name, i) => `(SELECT $${i + 1}::${inputs[name]}[])`).join(', ');
  return `unnest(${arrays}) WITH ORDINALITY AS i(${names.map(inputColumn).join(', ')}, ord)`;
};

/** The batch form of a statement: one array parameter per input, one row `i` per item. */
export interface BatchStatement<N extends string> {
  readonly text: string;
  /** The inputs, in the order of their array parameters. */
  readonly names: readonly N[];
  /** The input whose value orders the items: batches lock their rows in one order. */
  readonly orderBy: N;
  /** The arrays of a call, one per input, each item's value at its position. */
  values(items: readonly Readonly<Record<N, unknown>>[]): unknown[][];
}

/**
 * The batch form of the same statement (docs/performance/oauth.md, "Group commit"): `sql` reads
 * its items from batchInputSql(inputs), and each `:name` reads its column of the item row `i`,
 * so the steps' conditions are evaluated per item. Throws as statement() does, and if the text
 * does not read its items from batchInputSql(inputs).
 */
export function batchStatement<I extends StatementInputs>(
  sql: string,
  inputs: I,
  orderBy: keyof I & string,
): BatchStatement<keyof I & string> {
  const names = inputNames(inputs);
  checkNames(sql, names);
  if (!sql.includes(batchInputSql(inputs))) {
    throw new Error('a batch statement reads its items from batchInputSql(inputs)');
  }
  return {
    text: bindParams(sql, batchParams(names)),
    names,
    orderBy,
    values: (items) => {
      const rows = items.map((item) => valuesOf(names, item));
      return names.map((_, column) => rows.map((row) => row[column]));
    },
  };
}

/**
 * Runs a batch statement for `items` with the rows in the order of their `orderBy` value, and
 * answers in the caller's order: each item's row by its `ord`, or null where the statement
 * returned none for it. Two batches (of two instances) waiting for each other's rows then cannot
 * deadlock in the usual plan. Rejects, having changed nothing, if the statement fails.
 */
export async function runBatchStatement<Row extends QueryResultRow, N extends string>(
  dataSource: DataSource,
  name: string,
  batch: BatchStatement<N>,
  items: readonly Readonly<Record<N, unknown>>[],
): Promise<(Row | null)[]> {
  const ordered = inOrderOf(items, batch.orderBy);
  const rows = await preparedQuery<Row & { ord: string }>(
    dataSource,
    name,
    batch.text,
    batch.values(ordered.map(({ item }) => item)),
  );
  const answers: (Row | null)[] = items.map(() => null);
  for (const { ord, ...row } of rows)
    answers[ordered[Number(ord) - 1].index] = row as unknown as Row;
  return answers;
}

/** `items` sorted by their value of `key` (a hash: text), each with its position in `items`. */
export function inOrderOf<T extends Readonly<Record<N, unknown>>, N extends string>(
  items: readonly T[],
  key: N,
): { item: T; index: number }[] {
  return items
    .map((item, index) => ({ item, index, value: String(item[key]) }))
    .sort((a, b) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0))
    .map(({ item, index }) => ({ item, index }));
}

/** Every `:name` of `sql` is declared in `names`, and every declared name is used. */
function checkNames(sql: string, names: readonly string[]): void {
  const used = namedParameters(sql);
  const undeclared = used.filter((name) => !names.includes(name));
  if (undeclared.length > 0) {
    throw new Error(`statement parameters used but not declared: :${undeclared.join(', :')}`);
  }
  const unused = names.filter((name) => !used.includes(name));
  if (unused.length > 0) {
    throw new Error(`statement parameters declared but not used: :${unused.join(', :')}`);
  }
  if (new Set(names).size !== names.length)
    throw new Error('a statement parameter is declared twice');
}

/** The values of `names` from `args`, in order; undefined counts as missing (null is a value). */
function valuesOf(names: readonly string[], args: Readonly<Record<string, unknown>>): unknown[] {
  const values = names.map((name) => {
    const value = Object.hasOwn(args, name) ? args[name] : undefined;
    if (value === undefined) throw new Error(`no value for statement parameter :${name}`);
    return value;
  });
  const extra = Object.keys(args).filter((name) => !names.includes(name));
  if (extra.length > 0) {
    throw new Error(`values for parameters the statement does not take: :${extra.join(', :')}`);
  }
  return values;
}
