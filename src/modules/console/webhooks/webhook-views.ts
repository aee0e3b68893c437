import { ApiProperty } from '@nestjs/swagger';
import { rfc3339 } from '../../../common/http/timestamps';
import { EVENT_TYPES } from '../../events/event-types';
import {
  WEBHOOK_DELIVERY_KINDS,
  type WebhookDelivery,
  type WebhookDeliveryKind,
} from '../../webhooks/webhook-delivery.entity';
import type { WebhookEndpoint } from '../../webhooks/webhook-endpoint.entity';

const TIMESTAMP = { type: String, format: 'date-time', nullable: true } as const;

/** An endpoint in the console's Webhooks tab; never its secret. */
export class WebhookEndpointView {
  @ApiProperty() id!: number;
  @ApiProperty() url!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ enum: EVENT_TYPES, isArray: true, description: 'Empty: every type' })
  eventTypes!: string[];
  @ApiProperty() enabled!: boolean;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why delivery stopped on its own (410 Gone, 24 h of failures)',
  })
  disabledReason!: string | null;
  @ApiProperty({ ...TIMESTAMP, description: 'The first failure since the last success' })
  failingSince!: string | null;
  @ApiProperty({ ...TIMESTAMP, description: 'The next attempt after a failure' })
  nextAttemptAt!: string | null;
  @ApiProperty({
    description: 'The cursor: events up to this id are delivered or passed over; 0: none yet',
  })
  lastDeliveredEventId!: number;
  @ApiProperty({
    ...TIMESTAMP,
    description: 'After a rotation: until then the replaced secret signs too; null once past',
  })
  previousSecretUntil!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

export class CreatedWebhookView {
  @ApiProperty({ type: WebhookEndpointView }) endpoint!: WebhookEndpointView;
  @ApiProperty({ description: 'The signing secret (whsec_…), shown this once' })
  secret!: string;
}

export class ReplayedWebhookView {
  @ApiProperty({ type: WebhookEndpointView }) endpoint!: WebhookEndpointView;
  @ApiProperty({
    description: "Committed events of the endpoint's types now ahead of its cursor",
  })
  events!: number;
}

/** One attempt of the delivery log. */
export class WebhookDeliveryView {
  @ApiProperty() id!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'null for a test event' })
  eventId!: number | null;
  @ApiProperty({
    enum: WEBHOOK_DELIVERY_KINDS,
    description: 'delivery: a round; resend: one event sent by hand; test: a test event',
  })
  kind!: WebhookDeliveryKind;
  @ApiProperty({ format: 'date-time' }) attemptedAt!: string;
  @ApiProperty({ type: Number, nullable: true, description: 'null: no answer (refused, timeout)' })
  statusCode!: number | null;
  @ApiProperty() latencyMs!: number;
  @ApiProperty({ type: String, nullable: true, description: 'Why it failed; null on success' })
  error!: string | null;
  @ApiProperty({ ...TIMESTAMP, description: 'The retry a failed round scheduled' })
  nextAttemptAt!: string | null;
}

export function toEndpointView(endpoint: WebhookEndpoint, now: Date): WebhookEndpointView {
  const until = endpoint.previousSecretUntil;
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    eventTypes: [...endpoint.eventTypes],
    enabled: endpoint.enabled,
    disabledReason: endpoint.disabledReason,
    failingSince: rfc3339(endpoint.failingSince),
    nextAttemptAt: rfc3339(endpoint.nextAttemptAt),
    lastDeliveredEventId: Number(endpoint.cursor),
    previousSecretUntil: until !== null && until > now ? until.toISOString() : null,
    createdAt: endpoint.createdAt.toISOString(),
    updatedAt: endpoint.updatedAt.toISOString(),
  };
}

export function toDeliveryView(attempt: WebhookDelivery): WebhookDeliveryView {
  return {
    id: Number(attempt.id),
    eventId: attempt.eventId === null ? null : Number(attempt.eventId),
    kind: attempt.kind,
    attemptedAt: attempt.attemptedAt.toISOString(),
    statusCode: attempt.statusCode,
    latencyMs: attempt.latencyMs,
    error: attempt.error,
    nextAttemptAt: rfc3339(attempt.nextAttemptAt),
  };
}
