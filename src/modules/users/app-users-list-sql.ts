/**
 * Statements of GET /users (docs/performance/users.md). `base` is the WHERE clause without the
 * keyword (application first, then group/enabled), `$n` numbering continues after its
 * parameters. Every statement returns the page in user id order (docs/users-api.md).
 */

export const COLUMNS = `u.id::text AS user_id, u.username, u.email, u.nickname, u.avatar, u.email_verified,
  au."group", au.enabled, au.auth_count, au.first_auth_at, au.last_auth_at, u.last_login_at, u.created_at`;

/** Joins a page of user ids (subquery `page`, with a `total` column) to the rows shown. */
function withColumns(page: string): string {
  return `SELECT ${COLUMNS}, page.total FROM (${page}) page
    JOIN app_users au ON au.application_id = $1 AND au.user_id = page.user_id
    JOIN users u ON u.id = page.user_id
    ORDER BY page.user_id`;
}

/** No keyword: the page from the narrow relation index (index-only, even for deep offsets). */
export function pageSql(where: string, limit: number): string {
  return withColumns(`SELECT au.user_id, NULL AS total FROM app_users au WHERE ${where}
      ORDER BY au.user_id LIMIT $${limit} OFFSET $${limit + 1}`);
}

/**
 * Dense keyword: walks the application's relations in (application_id, user_id) order, reading
 * at most `budget` of them, and keeps the matches. When a quarter of the relations match, the
 * first page reads ~80 entries instead of rechecking every match. The page is right whenever
 * it is full (the walked entries are a prefix of the order); the caller checks that.
 */
export function walkSql(
  base: string,
  keyword: KeywordClause,
  limit: number,
  budget: number,
): string {
  return withColumns(`SELECT w.user_id, NULL AS total FROM (
        SELECT au.user_id, au.search FROM app_users au WHERE ${base}
        ORDER BY au.application_id, au.user_id LIMIT ${budget}
      ) w WHERE ${keyword('w')}
      ORDER BY w.user_id LIMIT $${limit} OFFSET $${limit + 1}`);
}

/**
 * Sparse keyword or deep page: the matches from the trigram bitmap, then a top-N sort. They are
 * materialized first: otherwise the planner may walk the application's whole (application_id,
 * user_id) index to avoid the sort and test LIKE on every relation (80 ms for 100,000).
 * `withTotal` also counts them (window), for the one statement that answers page and total.
 */
export function bitmapPageSql(
  where: string,
  from: string,
  limit: number,
  withTotal: boolean,
): string {
  const total = withTotal ? 'count(*) OVER ()' : 'NULL';
  return `WITH matches AS MATERIALIZED (SELECT au.user_id FROM ${from} WHERE ${where})
    ${withColumns(`SELECT user_id, ${total} AS total FROM matches
      ORDER BY user_id LIMIT $${limit} OFFSET $${limit + 1}`)}`;
}

export function countSql(where: string, from: string): string {
  return `SELECT count(*) AS total FROM ${from} WHERE ${where}`;
}

/** A keyword clause on the relation alias given. */
export type KeywordClause = (alias: string) => string;
