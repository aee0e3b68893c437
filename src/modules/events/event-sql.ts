/**
 * The one INSERT of event rows (docs/events.md, "One writer"). EventsService.record runs it with
 * VALUES; a statement of another module that must record its event in the same round trip (the
 * token endpoint, the seed) composes it as a CTE with `from`, so the column list, the fixed
 * `protocol`/`status` and the table stay defined here.
 *
 * Each field is an SQL expression (a parameter, a literal or a column of `from`).
 */
export interface EventColumns {
  applicationId: string;
  eventType: string;
  userId: string;
  scope: string;
  description: string;
  createdAt: string;
}

/** `INSERT INTO events … VALUES (…)`, or `… SELECT … <from>` when `from` is given. */
export function insertEventSql(c: EventColumns, from?: string): string {
  const values = `${c.applicationId}, ${c.eventType}, 'oauth2', 'success', ${c.userId}, ${c.scope}, ${c.description}, ${c.createdAt}`;
  const source = from === undefined ? `VALUES (${values})` : `SELECT ${values} ${from}`;
  return `INSERT INTO events (application_id, event_type, protocol, status, user_id, scope, description, created_at)
    ${source}`;
}

/**
 * Authorizations per UTC day in [$2, $3) for application $1 (docs/contract/stats.md#fields): the stats
 * module reads events through this query only.
 */
export const DAILY_COUNTS_SQL = `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*) AS count
  FROM events
  WHERE application_id = $1 AND event_type = $4 AND created_at >= $2 AND created_at < $3
  GROUP BY 1`;
