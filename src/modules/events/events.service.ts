import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { insertEventSql } from './event-sql';
import type { EventType } from './event-types';

const RECORD_SQL = `${insertEventSql({
  applicationId: '$1',
  eventType: '$2',
  userId: '$3',
  scope: '$4',
  description: '$5',
  createdAt: '$6',
})} RETURNING id::text AS id`;

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
    const [row] = await manager.query<{ id: string }[]>(RECORD_SQL, [
      event.applicationId,
      event.eventType,
      event.userId,
      event.scope ?? '',
      event.description ?? '',
      this.clock.now(),
    ]);
    return row.id;
  }
}
