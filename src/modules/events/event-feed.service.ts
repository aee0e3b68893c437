import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { commitHorizon } from './commit-horizon';
import { DAILY_COUNTS_SQL } from './event-sql';
import type { EventType } from './event-types';
import type { EventListQuery } from './event-query';
import { EventPage, EventRow, toEventView } from './event-view';

/**
 * GET /events (docs/contract/events.md#get-events; docs/events.md): newest first, paged back with `before`
 * and `beforeId`, or, with `after`, forward in ascending id order up to the commit horizon.
 */
@Injectable()
export class EventFeedService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async list(applicationId: number, q: EventListQuery): Promise<EventPage> {
    const params: unknown[] = [applicationId];
    const clauses = ['application_id = $1'];
    const param = (value: unknown): string => `$${params.push(value)}`;
    if (q.eventType !== undefined) clauses.push(`event_type = ${param(q.eventType)}`);
    let order = 'events.created_at DESC, events.id DESC';
    if (q.after !== undefined) {
      const horizon = await commitHorizon(this.dataSource, applicationId);
      clauses.push(`id > ${param(q.after)}::bigint`, `id <= ${param(horizon)}::bigint`);
      order = 'events.id ASC';
    } else if (q.beforeId !== undefined) {
      // A row comparison: the index (application_id, created_at, id) serves it as one range.
      clauses.push(
        `(created_at, id) < (${param(q.before)}::timestamptz, ${param(q.beforeId)}::bigint)`,
      );
    } else if (q.before !== undefined) {
      clauses.push(`created_at < ${param(q.before)}::timestamptz`);
    }
    // Ties in created_at are broken by id, so the order is total (docs/events.md). The table's
    // numeric id, not the text alias of the select list (which would order 10 before 9).
    const rows = await this.dataSource.query<EventRow[]>(
      `SELECT id::text AS id, event_type, protocol, status, user_id::text AS user_id, scope,
              description, created_at
       FROM events WHERE ${clauses.join(' AND ')}
       ORDER BY ${order} LIMIT ${param(q.limit)}`,
      params,
    );
    return { items: rows.map(toEventView), limit: q.limit };
  }

  /** Events of one type per UTC day (YYYY-MM-DD → count) in [from, to); days without are absent. */
  async countPerUtcDay(
    applicationId: number,
    eventType: EventType,
    from: Date,
    to: Date,
  ): Promise<Map<string, number>> {
    const rows = await this.dataSource.query<{ day: string; count: string }[]>(DAILY_COUNTS_SQL, [
      applicationId,
      from,
      to,
      eventType,
    ]);
    return new Map(rows.map((row) => [row.day, Number(row.count)]));
  }
}
