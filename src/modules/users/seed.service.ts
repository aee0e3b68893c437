import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';

export interface SeedResult {
  applicationId: number;
  users: number;
  events: number;
  firstUsername: string | null;
  days: number;
  batches: number;
  durationMs: number;
}

/** Rows per INSERT … SELECT; large enough for speed, small enough to keep each statement short. */
const BATCH = 50_000;
export const SEED_SCOPE = 'openid profile email';

/**
 * Synthetic users for demos and benchmarks (docs/seed.md). Set-based: one statement per batch
 * inserts users, their primary emails, the relations and the authorization_granted events, so
 * a million users take minutes, not hours. Every figure is derived from the user number n:
 * k = 1 + n % 3 authorizations one hour apart, the first at a deterministic point of the last
 * `days` days; authCount, firstAuthAt and lastAuthAt agree with the events.
 */
@Injectable()
export class SeedService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async seed(applicationId: number, count: number, days: number): Promise<SeedResult> {
    const started = Date.now();
    const now = this.clock.now();
    const from = (await this.lastSeeded(applicationId)) + 1;
    let events = 0;
    let batches = 0;
    for (let lo = from; lo < from + count; lo += BATCH) {
      const hi = Math.min(lo + BATCH - 1, from + count - 1);
      events += await this.insertBatch(applicationId, lo, hi, days, now);
      batches += 1;
    }
    // Fresh statistics, so the planner picks the indexes from the first request on.
    await this.dataSource.query('ANALYZE users, user_emails, app_users, events');
    return {
      applicationId,
      users: count,
      events,
      firstUsername: count > 0 ? `seed${applicationId}_${from}` : null,
      days,
      batches,
      durationMs: Date.now() - started,
    };
  }

  /** Seeded usernames are seed<app>_<n>; a later run continues the numbering. */
  private async lastSeeded(applicationId: number): Promise<number> {
    const [row] = await this.dataSource.query<{ last: string | null }[]>(
      `SELECT max(substring(username FROM $2)::bigint) AS last FROM users WHERE username LIKE $1`,
      [`seed${applicationId}\\_%`, `^seed${applicationId}_(\\d+)$`],
    );
    return Number(row.last ?? 0);
  }

  private async insertBatch(
    applicationId: number,
    lo: number,
    hi: number,
    days: number,
    now: Date,
  ): Promise<number> {
    const rows = await this.dataSource.query<{ events: string }[]>(SEED_SQL, [
      applicationId,
      lo,
      hi,
      now,
      days * 86_400,
      SEED_SCOPE,
    ]);
    return Number(rows[0].events);
  }
}

// $1 app, $2..$3 user numbers, $4 now, $5 span in seconds, $6 scope. The 2-hour margin keeps
// the last of the (at most 3, hourly) authorizations before now.
const SEED_SQL = `
WITH g AS (
  SELECT n, 'seed' || $1::int || '_' || n AS username, 1 + (n % 3)::int AS k,
         $4::timestamptz - make_interval(secs => $5::int)
           + make_interval(secs => ((n * 7919) % ($5::int - 7200))::int) AS first_at
  FROM generate_series($2::bigint, $3::bigint) AS n
), ins_u AS (
  INSERT INTO users (username, email, nickname, avatar, email_verified, last_login_at,
                     created_at, updated_at)
  SELECT username,
         username || '@' || (ARRAY['example.com','example.org','example.net','mail.test'])[1 + n % 4],
         'Seed user ' || n, 'https://avatars.example/seed/' || n || '.png', n % 3 <> 0,
         first_at + (k - 1) * interval '1 hour', first_at, first_at
  FROM g
  RETURNING id, username, email, email_verified, created_at
), ins_e AS (
  INSERT INTO user_emails (user_id, email, verified, "primary", visibility, created_at)
  SELECT id, email, email_verified, true, 'public', created_at FROM ins_u
), ins_r AS (
  INSERT INTO app_users (application_id, user_id, "group", enabled, granted_scope, auth_count,
                         first_auth_at, last_auth_at, created_at)
  SELECT $1, u.id,
         CASE WHEN g.n % 100 = 0 THEN 'admin' WHEN g.n % 100 < 5 THEN 'viewer'
              ELSE 't' || (g.n % 6) END,
         g.n % 10 <> 0, $6, g.k, g.first_at, g.first_at + (g.k - 1) * interval '1 hour', g.first_at
  FROM ins_u u JOIN g USING (username)
), ins_ev AS (
  INSERT INTO events (application_id, event_type, protocol, status, user_id, scope, description,
                      created_at)
  SELECT $1, 'authorization_granted', 'oauth2', 'success', u.id, $6, 'seeded',
         g.first_at + j * interval '1 hour'
  FROM ins_u u JOIN g USING (username) CROSS JOIN LATERAL generate_series(0, g.k - 1) AS j
  RETURNING 1
)
SELECT count(*) AS events FROM ins_ev`;
