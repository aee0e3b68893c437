import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import type { EventType } from './event-types';

export interface NewEvent {
  applicationId: number;
  eventType: EventType;
  userId: string | null;
  scope?: string;
  description?: string;
}

@Injectable()
export class EventsService {
  constructor(private readonly clock: Clock) {}

  /**
   * Records an event through the caller's transaction manager, so the event is written
   * if and only if the change it reports is committed. The id comes from the events trigger
   * (docs/events.md), so it is read back with RETURNING. Returns the new event's id.
   */
  async record(manager: EntityManager, event: NewEvent): Promise<string> {
    const [row] = await manager.query<{ id: string }[]>(
      `INSERT INTO events (application_id, event_type, protocol, status, user_id, scope,
                           description, created_at)
       VALUES ($1, $2, 'oauth2', 'success', $3, $4, $5, $6) RETURNING id::text AS id`,
      [
        event.applicationId,
        event.eventType,
        event.userId,
        event.scope ?? '',
        event.description ?? '',
        this.clock.now(),
      ],
    );
    return row.id;
  }
}
