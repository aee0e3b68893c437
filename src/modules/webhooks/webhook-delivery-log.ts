import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { Metrics, type WebhookOutcome } from '../../common/metrics/metrics';
import type { WebhookDelivery, WebhookDeliveryKind } from './webhook-delivery.entity';
import { DELIVERY_LOG_SIZE } from './webhook-endpoints.service';
import { isDelivered } from './webhook-message';
import type { SendOutcome } from './webhook-sender';

/**
 * The writer of webhook_deliveries (docs/webhooks.md, "Delivery log") and of the delivery
 * metrics: one row per attempt, the endpoint's rows beyond the last DELIVERY_LOG_SIZE deleted.
 */
@Injectable()
export class WebhookDeliveryLog {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(Metrics) private readonly metrics: Metrics,
  ) {}

  /**
   * Logs one attempt; null when the endpoint no longer exists (deleted while the attempt was in
   * flight: its log went with it, and nothing is written for it).
   */
  async record(
    endpointId: number,
    kind: WebhookDeliveryKind,
    eventId: string | null,
    outcome: SendOutcome,
    next: Date | null,
  ): Promise<WebhookDelivery | null> {
    this.metrics.webhookDelivery(kind, deliveryOutcome(outcome));
    const [row] = await this.dataSource.query<LogRow[]>(
      `WITH logged AS (
         INSERT INTO webhook_deliveries (endpoint_id, kind, event_id, attempted_at, status_code,
                                         latency_ms, error, next_attempt_at)
         SELECT id, $2, $3, $4, $5, $6, $7, $8 FROM webhook_endpoints WHERE id = $1
         RETURNING id::text AS id, endpoint_id, kind, event_id::text AS event_id, attempted_at,
                   status_code, latency_ms, error, next_attempt_at)
       SELECT * FROM logged`,
      [
        endpointId,
        kind,
        eventId,
        this.clock.now(),
        outcome.status,
        outcome.latencyMs,
        outcome.error,
        next,
      ],
    );
    if (!row) return null;
    await this.dataSource.query(
      `DELETE FROM webhook_deliveries WHERE endpoint_id = $1 AND id <= (
         SELECT id FROM webhook_deliveries WHERE endpoint_id = $1
         ORDER BY id DESC OFFSET $2 LIMIT 1)`,
      [endpointId, DELIVERY_LOG_SIZE],
    );
    return {
      id: row.id,
      endpointId: row.endpoint_id,
      kind: row.kind,
      eventId: row.event_id,
      attemptedAt: row.attempted_at,
      statusCode: row.status_code,
      latencyMs: row.latency_ms,
      error: row.error,
      nextAttemptAt: row.next_attempt_at,
    };
  }
}

interface LogRow {
  id: string;
  endpoint_id: number;
  kind: WebhookDeliveryKind;
  event_id: string | null;
  attempted_at: Date;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  next_attempt_at: Date | null;
}

/** The `outcome` label of one POST: a 2xx, another status, or no answer at all. */
function deliveryOutcome(outcome: SendOutcome): WebhookOutcome {
  if (outcome.status === null) return 'network_error';
  return isDelivered(outcome.status) ? 'success' : 'http_error';
}
