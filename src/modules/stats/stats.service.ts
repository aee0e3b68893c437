import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { EventFeedService } from '../events/event-feed.service';
import { RelationActivity } from '../users/relation-activity';
import { StatsView } from './stats-view';

const DAY_MS = 24 * 60 * 60 * 1000;
export const STATS_WINDOW_DAYS = 30;

@Injectable()
export class StatsService {
  constructor(
    private readonly relations: RelationActivity,
    private readonly events: EventFeedService,
    private readonly clock: Clock,
  ) {}

  async forApplication(applicationId: number): Promise<StatsView> {
    const now = this.clock.now();
    const since = new Date(now.getTime() - STATS_WINDOW_DAYS * DAY_MS);
    const days = utcDays(now, STATS_WINDOW_DAYS);
    const firstDay = new Date(`${days[days.length - 1]}T00:00:00Z`);
    const nextDay = new Date(new Date(`${days[0]}T00:00:00Z`).getTime() + DAY_MS);
    const [totals, counts] = await Promise.all([
      this.relations.totals(applicationId, since),
      this.events.countPerUtcDay(applicationId, 'authorization_granted', firstDay, nextDay),
    ]);
    return {
      totalUsers: totals.totalUsers,
      totalAuths: totals.totalAuths,
      activeUsers30d: totals.active,
      newUsers30d: totals.new,
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
