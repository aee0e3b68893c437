import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { AuthEvent } from './event.entity';
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
   * if and only if the change it reports is committed.
   */
  async record(manager: EntityManager, event: NewEvent): Promise<AuthEvent> {
    return manager.getRepository(AuthEvent).save({
      applicationId: event.applicationId,
      eventType: event.eventType,
      protocol: 'oauth2',
      status: 'success',
      userId: event.userId,
      scope: event.scope ?? '',
      description: event.description ?? '',
      createdAt: this.clock.now(),
    });
  }
}
