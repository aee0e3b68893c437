import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import type { AuditDetails } from '../audit/audit-log.entity';
import { AuditLog } from '../audit/audit-log.service';
import { EventFeedService } from '../events/event-feed.service';
import { EventListQuery } from '../events/event-query';
import type { EventView } from '../events/event-view';
import type { WebhookDelivery } from './webhook-delivery.entity';
import { WebhookDeliveryLog } from './webhook-delivery-log';
import type { WebhookEndpoint } from './webhook-endpoint.entity';
import {
  recordWebhookAudit,
  WebhookActor,
  WebhookEndpointsService,
} from './webhook-endpoints.service';
import { TEST_EVENT_TYPE, webhookBody, webhookId } from './webhook-message';
import { WebhookPoster } from './webhook-poster';
import type { SendOutcome } from './webhook-sender';

/**
 * Sends out of band, by an admin's hand (docs/webhooks.md, "Resend and test event"): outside the
 * delivery loop and its leases, never moving the cursor or the failure state; logged and audited.
 */
@Injectable()
export class WebhookResendService {
  constructor(
    private readonly clock: Clock,
    private readonly feed: EventFeedService,
    private readonly endpoints: WebhookEndpointsService,
    private readonly poster: WebhookPoster,
    private readonly log: WebhookDeliveryLog,
    private readonly audit: AuditLog,
  ) {}

  /**
   * Sends one committed event of the endpoint's application again, now, with its webhook-id
   * (evt_<id>): logged as a resend. An event that is not one of the application's committed
   * events (the forward feed's): not found.
   */
  async resend(endpointId: number, eventId: string, actor: WebhookActor): Promise<WebhookDelivery> {
    const endpoint = await this.endpoints.get(endpointId, actor);
    const event = await this.committedEvent(endpoint.applicationId, eventId);
    const users = await this.poster.usersOf(endpoint.applicationId, [event]);
    const outcome = await this.poster.post(
      endpoint.url,
      endpoint,
      webhookId(event),
      webhookBody(event, users.get(event.userId ?? '') ?? null),
    );
    const attempt = await this.logged(endpoint, 'resend', String(event.id), outcome);
    await this.audited(actor, endpoint, 'webhook.resend', {
      eventId: String(event.id),
      statusCode: outcome.status,
    });
    return attempt;
  }

  /**
   * Sends a test message now: type webhook.test, webhook-id test_<uuid>, data {applicationId,
   * endpointId}, signed like deliveries. Logged as a test; no state changes.
   */
  async sendTest(endpointId: number, actor: WebhookActor): Promise<WebhookDelivery> {
    const endpoint = await this.endpoints.get(endpointId, actor);
    const outcome = await this.poster.post(
      endpoint.url,
      endpoint,
      `test_${randomUUID()}`,
      JSON.stringify({
        type: TEST_EVENT_TYPE,
        timestamp: this.clock.now().toISOString(),
        data: { applicationId: endpoint.applicationId, endpointId: endpoint.id },
      }),
    );
    const attempt = await this.logged(endpoint, 'test', null, outcome);
    await this.audited(actor, endpoint, 'webhook.test', { statusCode: outcome.status });
    return attempt;
  }

  /** The event `eventId` if the forward feed of the application has it (committed). */
  private async committedEvent(applicationId: number, eventId: string): Promise<EventView> {
    const query = Object.assign(new EventListQuery(), {
      after: String(BigInt(eventId) - 1n),
      limit: 1,
    });
    const [event] = (await this.feed.list(applicationId, query)).items;
    if (!event || String(event.id) !== eventId) {
      throw new AppError(ErrorCode.NotFound, 'Event not found in this application');
    }
    return event;
  }

  /** The attempt's log row; an endpoint deleted meanwhile is not found. */
  private async logged(
    endpoint: WebhookEndpoint,
    kind: 'resend' | 'test',
    eventId: string | null,
    outcome: SendOutcome,
  ): Promise<WebhookDelivery> {
    const attempt = await this.log.record(endpoint.id, kind, eventId, outcome, null);
    if (!attempt) throw new AppError(ErrorCode.NotFound, 'Webhook endpoint not found');
    return attempt;
  }

  private audited(
    actor: WebhookActor,
    endpoint: WebhookEndpoint,
    action: string,
    details: AuditDetails,
  ): Promise<void> {
    return recordWebhookAudit(this.audit, undefined, actor, endpoint, action, details);
  }
}
