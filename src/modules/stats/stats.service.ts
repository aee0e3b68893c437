import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { StatsView } from './stats-view';

const DAY_MS = 24 * 60 * 60 * 1000;
export const STATS_WINDOW_DAYS = 30;

@Injectable()
export class StatsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async forApplication(applicationId: number): Promise<StatsView> {
    const now = this.clock.now();
    const since = new Date(now.getTime() - STATS_WINDOW_DAYS * DAY_MS);
    const days = utcDays(now, STATS_WINDOW_DAYS);
    const firstDay = new Date(`${days[days.length - 1]}T00:00:00Z`);
    const nextDay = new Date(new Date(`${days[0]}T00:00:00Z`).getTime() + DAY_MS);
    const [[totals], daily] = await Promise.all([
      this.dataSource.query<
        { total_users: string; total_auths: string; active: string; new_users: string }[]
      >(
        `SELECT count(*) AS total_users, coalesce(sum(auth_count), 0) AS total_auths,
                count(*) FILTER (WHERE last_auth_at >= $2) AS active,
                count(*) FILTER (WHERE first_auth_at >= $2) AS new_users
         FROM app_users WHERE application_id = $1`,
        [applicationId, since],
      ),
      this.dataSource.query<{ day: string; count: string }[]>(
        `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*) AS count
         FROM events
         WHERE application_id = $1 AND event_type = 'authorization_granted'
           AND created_at >= $2 AND created_at < $3
         GROUP BY 1`,
        [applicationId, firstDay, nextDay],
      ),
    ]);
    const counts = new Map(daily.map((row) => [row.day, Number(row.count)]));
    return {
      totalUsers: Number(totals.total_users),
      totalAuths: Number(totals.total_auths),
      activeUsers30d: Number(totals.active),
      newUsers30d: Number(totals.new_users),
      dailyAuthCounts: days.map((date) => ({ date, count: counts.get(date) ?? 0 })),
    };
  }
}

/** The last `count` UTC dates ending with today, most recent first (YYYY-MM-DD). */
export function utcDays(now: Date, count: number): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: count }, (_, i) =>
    new Date(today - i * DAY_MS).toISOString().slice(0, 10),
  );
}
