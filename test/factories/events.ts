import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { bearer } from './app-users';
import type { TestApp } from '../support/test-app';

/** Anything that runs SQL: the app's DataSource, a transaction's manager or a query runner. */
type Sql = Pick<DataSource | EntityManager | QueryRunner, 'query'>;

/** Inserts one event with SQL, as the OAuth steps do; returns the id the trigger drew. */
export async function insertEvent(
  sql: Sql,
  app: number,
  type = 'token_issued',
  at = '2030-01-01T00:00:00Z',
  userId: string | null = '7',
): Promise<number> {
  const [row] = (await sql.query(
    `INSERT INTO events (application_id, event_type, user_id, scope, description, created_at)
     VALUES ($1, $2, $3, 'openid email', 'd', $4) RETURNING id::int AS id`,
    [app, type, userId, at],
  )) as { id: number }[];
  return row.id;
}

/**
 * A forward-syncing client as docs/events.md describes it: it polls `after=<largest id seen>`
 * and remembers the largest id of each page. Every page is checked as it arrives: ascending
 * and above the cursor, so no id is ever seen twice or below one already seen.
 */
export class ForwardPoller {
  readonly seen: number[] = [];
  private cursor = 0;

  constructor(
    private readonly t: TestApp,
    private readonly key: string,
    private readonly limit = 50,
  ) {}

  /** One poll: the page's ids, or null when the service answered 503 (poll again later). */
  async poll(): Promise<number[] | null> {
    const res = await this.t
      .http()
      .get(`/api/v1/app/events?after=${this.cursor}&limit=${this.limit}`)
      .set(...bearer(this.key));
    if (res.status === 503) {
      expect(res.body).toEqual({ error: 'service_unavailable', message: expect.any(String) });
      return null;
    }
    expect(res.status).toBe(200);
    const ids = (res.body.items as { id: number }[]).map((e) => e.id);
    let previous = this.cursor;
    for (const id of ids) {
      if (id <= previous) throw new Error(`page ${ids.join(',')} after ${this.cursor}`);
      previous = id;
    }
    this.seen.push(...ids);
    this.cursor = previous;
    return ids;
  }

  /** Polls until a page comes back empty: everything committed so far has been seen. */
  async drain(): Promise<void> {
    for (;;) {
      const ids = await this.poll();
      if (ids !== null && ids.length === 0) return;
    }
  }
}
