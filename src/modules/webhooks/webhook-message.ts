import type { EventView } from '../events/event-view';
import type { UserView } from '../users/user-view';

/** The message of the test event (docs/webhooks.md, "Test event"). */
export const TEST_EVENT_TYPE = 'webhook.test';

/**
 * The JSON body of a delivery (docs/webhooks.md, "Wire format"): the event as GET /events shows
 * it, and the user it names as GET /users/{userId} shows them now (null when the event names
 * none, or the user is no longer the application's), so a receiver can act without calling back.
 */
export function webhookBody(event: EventView, user: UserView | null): string {
  return JSON.stringify({
    type: event.eventType,
    timestamp: event.createdAt,
    data: { ...event, user },
  });
}

/** The webhook-id of an event: stable, so a receiver can drop a repeated delivery. */
export function webhookId(event: EventView): string {
  return `evt_${event.id}`;
}

/** The one rule of success (docs/webhooks.md, "Retries"): a 2xx; anything else is a failure. */
export function isDelivered(status: number | null): boolean {
  return status !== null && status >= 200 && status < 300;
}
