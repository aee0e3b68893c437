import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { rfc3339 } from '../../common/http/timestamps';
import type { EventListQuery } from './event-query';

/** Spec section 2, Event. */
export interface EventView {
  id: number;
  eventType: string;
  protocol: string;
  status: string;
  userId: string | null;
  scope: string;
  description: string;
  createdAt: string;
}

interface EventRow {
  id: string;
  event_type: string;
  protocol: string;
  status: string;
  user_id: string | null;
  scope: string;
  description: string;
  created_at: Date;
}

/** GET /events: the application's events, newest first (spec section 6). */
@Injectable()
export class EventFeedService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async list(
    applicationId: number,
    q: EventListQuery,
  ): Promise<{ items: EventView[]; limit: number }> {
    const params: unknown[] = [applicationId];
    const clauses = ['application_id = $1'];
    if (q.eventType !== undefined) {
      params.push(q.eventType);
      clauses.push(`event_type = $${params.length}`);
    }
    if (q.before !== undefined) {
      params.push(q.before);
      clauses.push(`created_at < $${params.length}::timestamptz`);
    }
    params.push(q.limit);
    // Ties in created_at are broken by id, so the order is total (docs/events.md). The table's
    // numeric id, not the text alias of the select list (which would order 10 before 9).
    const rows = await this.dataSource.query<EventRow[]>(
      `SELECT id::text AS id, event_type, protocol, status, user_id::text AS user_id, scope,
              description, created_at
       FROM events WHERE ${clauses.join(' AND ')}
       ORDER BY events.created_at DESC, events.id DESC LIMIT $${params.length}`,
      params,
    );
    return { items: rows.map(toEventView), limit: q.limit };
  }
}

function toEventView(row: EventRow): EventView {
  return {
    id: Number(row.id),
    eventType: row.event_type,
    protocol: row.protocol,
    status: row.status,
    userId: row.user_id,
    scope: row.scope,
    description: row.description,
    createdAt: rfc3339(row.created_at) ?? '',
  };
}
