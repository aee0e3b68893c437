import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { insertEventSql } from '../events/event-sql';
import { EMAIL_DOMAINS, FIRST_NAMES, LAST_NAMES } from './seed-names';

export interface SeedResult {
  applicationId: number;
  users: number;
  /** Generated users not written because their username or email was already taken. */
  skipped: number;
  events: number;
  firstUsername: string | null;
  days: number;
  batches: number;
  durationMs: number;
}

/** Rows per INSERT … SELECT; large enough for speed, small enough to keep each statement short. */
const BATCH = 50_000;
export const SEED_SCOPE = 'openid profile email';
/** Every seeded user's avatar; the number in it is the seed number n (continues across runs). */
export const SEED_AVATAR_PREFIX = 'https://avatars.example/seed/';
/** One entry per percent, so `domains[1 + h % 100]` follows the EMAIL_DOMAINS frequencies. */
const DOMAIN_PER_PERCENT = EMAIL_DOMAINS.flatMap(([domain, share]) =>
  Array.from({ length: share }, () => domain),
);

/**
 * Synthetic users for demos and benchmarks (docs/seed.md). Set-based: one statement per batch
 * inserts users, their primary emails, the relations and the authorization_granted events, so
 * a million users take about a minute. Every figure is derived from the seed number n (unique
 * across all applications, so names never collide between applications): name parts and email
 * domain from hashes of n, k = 1 + n % 3 authorizations one hour apart, the first at a
 * deterministic point of the last `days` days; authCount, firstAuthAt and lastAuthAt agree
 * with the events.
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
    const from = (await this.lastSeeded()) + 1;
    let users = 0;
    let events = 0;
    let batches = 0;
    let firstUsername: string | null = null;
    for (let lo = from; lo < from + count; lo += BATCH) {
      const hi = Math.min(lo + BATCH - 1, from + count - 1);
      const batch = await this.insertBatch(applicationId, lo, hi, days, now);
      users += batch.users;
      events += batch.events;
      firstUsername ??= batch.first;
      batches += 1;
    }
    // Fresh statistics, so the planner picks the indexes from the first request on.
    await this.dataSource.query('ANALYZE users, user_emails, app_users, events');
    return {
      applicationId,
      users,
      skipped: count - users,
      events,
      firstUsername,
      days,
      batches,
      durationMs: Date.now() - started,
    };
  }

  /** The highest seed number used so far, by any application (read from the avatar URL). */
  private async lastSeeded(): Promise<number> {
    const [row] = await this.dataSource.query<{ last: string | null }[]>(
      `SELECT max(substring(avatar FROM $2)::bigint) AS last FROM users WHERE avatar LIKE $1`,
      [`${SEED_AVATAR_PREFIX}%`, `^${SEED_AVATAR_PREFIX.replace(/\./g, '\\.')}(\\d+)\\.png$`],
    );
    return Number(row.last ?? 0);
  }

  private async insertBatch(
    applicationId: number,
    lo: number,
    hi: number,
    days: number,
    now: Date,
  ): Promise<{ users: number; events: number; first: string | null }> {
    const [row] = await this.dataSource.query<
      { users: string; events: string; first: string | null }[]
    >(SEED_SQL, [
      applicationId,
      lo,
      hi,
      now,
      days * 86_400,
      SEED_SCOPE,
      FIRST_NAMES,
      LAST_NAMES,
      DOMAIN_PER_PERCENT,
      SEED_AVATAR_PREFIX,
    ]);
    return { users: Number(row.users), events: Number(row.events), first: row.first };
  }
}

// $1 app, $2..$3 seed numbers, $4 now, $5 span in seconds, $6 scope, $7 first names,
// $8 last names, $9 domains (one per percent), $10 avatar prefix.
// Names: h ∈ [0, 1) from a hash of n, raised to a power > 1 so the first (popular) entries of
// the lists are picked more often. The username (and email local part) always ends in n after
// a letter, so it is unique. A user whose username or email is taken is skipped (ON CONFLICT),
// with its relation and events. The 2-hour margin keeps the last of the (at most 3, hourly)
// authorizations before now.
const SEED_SQL = `
WITH parts AS (
  SELECT n,
         ($7::text[])[1 + floor(power(abs(hashint8extended(n, 1) % 1000000) / 1e6::float8, 1.3)
                                * cardinality($7::text[]))::int] AS f,
         ($8::text[])[1 + floor(power(abs(hashint8extended(n, 2) % 1000000) / 1e6::float8, 1.2)
                                * cardinality($8::text[]))::int] AS l,
         abs(hashint8extended(n, 3) % 8)::int AS p,
         abs(hashint8extended(n, 4) % 3)::int AS e,
         ($9::text[])[1 + abs(hashint8extended(n, 5) % 100)::int] AS domain
  FROM generate_series($2::bigint, $3::bigint) AS n
), named AS (
  SELECT *, CASE p WHEN 0 THEN f || '.' || l WHEN 1 THEN f || '_' || l
                   WHEN 2 THEN left(f, 1) || l WHEN 3 THEN initcap(f) || initcap(l)
                   WHEN 4 THEN l || '.' || f WHEN 5 THEN f WHEN 6 THEN l || left(f, 1)
                   ELSE f || '-' || l END || n AS username
  FROM parts
), g AS (
  SELECT n, f, l, username,
         CASE e WHEN 0 THEN lower(username) WHEN 1 THEN f || '.' || l || n
                ELSE left(f, 1) || l || n END || '@' || domain AS email,
         1 + (n % 3)::int AS k,
         $4::timestamptz - make_interval(secs => $5::int)
           + make_interval(secs => ((n * 7919) % ($5::int - 7200))::int) AS first_at
  FROM named
), ins_u AS (
  INSERT INTO users (username, email, nickname, avatar, email_verified, last_login_at,
                     created_at, updated_at)
  SELECT username, email, initcap(f) || ' ' || initcap(l), $10 || n || '.png', n % 3 <> 0,
         first_at + (k - 1) * interval '1 hour', first_at, first_at
  FROM g
  ON CONFLICT DO NOTHING
  RETURNING id, username, email, email_verified, created_at
), ins_e AS (
  INSERT INTO user_emails (user_id, email, verified, "primary", visibility, created_at)
  SELECT id, email, email_verified, true, 'public', created_at FROM ins_u
), ins_r AS (
  -- search: the value the app_users trigger computes (migration AppUserSearch).
  INSERT INTO app_users (application_id, user_id, "group", enabled, granted_scope, auth_count,
                         first_auth_at, last_auth_at, created_at, search)
  SELECT $1, u.id,
         CASE WHEN g.n % 100 = 0 THEN 'admin' WHEN g.n % 100 < 5 THEN 'viewer'
              ELSE 't' || (g.n % 6) END,
         g.n % 10 <> 0, $6, g.k, g.first_at, g.first_at + (g.k - 1) * interval '1 hour', g.first_at,
         lower(u.username) || E'\\n' || lower(u.email)
  FROM ins_u u JOIN g USING (username)
), ins_ev AS (
  ${insertEventSql(
    {
      applicationId: '$1',
      eventType: "'authorization_granted'",
      userId: 'u.id',
      scope: '$6',
      description: "'seeded'",
      createdAt: "g.first_at + j * interval '1 hour'",
    },
    'FROM ins_u u JOIN g USING (username) CROSS JOIN LATERAL generate_series(0, g.k - 1) AS j',
  )}
  RETURNING 1
)
SELECT (SELECT count(*) FROM ins_u) AS users, (SELECT count(*) FROM ins_ev) AS events,
       (SELECT g.username FROM ins_u u JOIN g USING (username) ORDER BY g.n LIMIT 1) AS first`;
