import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { ShutdownState } from '../../common/http/shutdown-state';
import { AppConfig } from '../../config/app-config';
import { AuditLog } from '../audit/audit-log.service';
import { EventFeedService } from '../events/event-feed.service';
import { EventListQuery } from '../events/event-query';
import type { EventView } from '../events/event-view';
import type { AddressPolicy } from './webhook-address';
import { backoffMs, retryAfterMs } from './retry-schedule';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { DELIVERY_TIMEOUT_MS, SendOutcome, sendWebhook } from './webhook-sender';

/** How long a claimed endpoint stays this instance's (docs/webhooks.md, "Several instances"). */
export const LEASE_MS = 30_000;
/** A POST starts only while this much of the lease is left, so it ends before the lease does. */
const LEASE_MARGIN_MS = DELIVERY_TIMEOUT_MS + 5_000;
/** Endpoints one instance claims per round. */
const CLAIM_BATCH = 20;
/** Events read per endpoint and round (at most one POST each). */
const EVENTS_PER_ROUND = 50;
/** Delivery attempts kept per endpoint in webhook_deliveries. */
export const DELIVERY_LOG_SIZE = 100;
/** An endpoint that has failed for this long without a success is disabled. */
export const DISABLE_AFTER_FAILING_MS = 24 * 60 * 60 * 1000;

/** An endpoint as claimed for one round. */
interface Claimed {
  id: number;
  application_id: number;
  url: string;
  event_types: string[];
  secret: string;
  previous_secret: string | null;
  previous_secret_until: Date | null;
  cursor: string;
  attempts: number;
  failing_since: Date | null;
  lease_until: Date;
}

/** The JSON body of a delivery (docs/webhooks.md, "Wire format"). */
export function webhookBody(event: EventView): string {
  return JSON.stringify({ type: event.eventType, timestamp: event.createdAt, data: event });
}

/** The webhook-id of an event: stable, so a receiver can drop a repeated delivery. */
export function webhookId(event: EventView): string {
  return `evt_${event.id}`;
}

/**
 * The delivery engine (docs/webhooks.md). A round claims the enabled endpoints that are due and
 * not leased by another instance, then for each one sends the events after its cursor, in
 * commit order, as the forward feed of GET /events?after= reads them (EventFeedService), one
 * POST at a time. The cursor moves only after a 2xx, and only while this instance still holds
 * the lease; a failure keeps the event at the head and schedules the retry.
 */
@Injectable()
export class WebhookDeliveryService {
  private readonly logger = new Logger('Webhooks');
  /** This instance's lease owner name. */
  readonly instanceId = randomUUID();
  private stopping = false;
  /** The last endpoint claimed: the next claim starts after it, so each endpoint gets its turn. */
  private claimedUpTo = 0;
  private readonly addressPolicy: AddressPolicy;

  constructor(
    @Inject(AppConfig) config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly feed: EventFeedService,
    private readonly endpoints: WebhookEndpointsService,
    private readonly audit: AuditLog,
    private readonly shutdown: ShutdownState,
  ) {
    this.addressPolicy = {
      allowedPrivateHosts: config.webhooksAllowedPrivateHosts,
      allowLoopback: config.webhooksAllowInsecure,
    };
  }

  /** No more claims or POSTs from now on; a POST in flight finishes (or times out). */
  stop(): void {
    this.stopping = true;
  }

  /**
   * One round; returns how many endpoints it served and whether work is left: an endpoint read
   * a full batch, so more events may wait behind it.
   */
  async runRound(): Promise<{ served: number; more: boolean }> {
    if (this.stopped) return { served: 0, more: false };
    const claimed = await this.claim();
    const full = await Promise.all(claimed.map((endpoint) => this.serveAndRelease(endpoint)));
    return { served: claimed.length, more: full.includes(true) };
  }

  private get stopped(): boolean {
    return this.stopping || this.shutdown.shuttingDown;
  }

  /**
   * One statement: an endpoint whose lease is free or expired becomes this instance's. The ids
   * after the last claim come first, then from the lowest (round robin over CLAIM_BATCH).
   */
  private async claim(): Promise<Claimed[]> {
    const now = this.clock.now();
    const claimed = await this.dataSource.query<Claimed[]>(
      `WITH claimed AS (
         UPDATE webhook_endpoints SET lease_owner = $1, lease_until = $2
         WHERE id IN (
           SELECT id FROM webhook_endpoints
           WHERE enabled AND (lease_until IS NULL OR lease_until < $3)
             AND (next_attempt_at IS NULL OR next_attempt_at <= $3)
           ORDER BY id <= $5, id LIMIT $4 FOR UPDATE SKIP LOCKED)
         AND (lease_until IS NULL OR lease_until < $3)
         RETURNING id, application_id, url, event_types, secret, previous_secret,
                   previous_secret_until, cursor::text AS cursor, attempts,
                   failing_since, lease_until)
       SELECT * FROM claimed`,
      [this.instanceId, new Date(now.getTime() + LEASE_MS), now, CLAIM_BATCH, this.claimedUpTo],
    );
    const wrapped = claimed.filter((endpoint) => endpoint.id <= this.claimedUpTo);
    this.claimedUpTo = Math.max(0, ...(wrapped.length > 0 ? wrapped : claimed).map((e) => e.id));
    return claimed;
  }

  private async serveAndRelease(endpoint: Claimed): Promise<boolean> {
    try {
      return await this.serve(endpoint);
    } catch (error) {
      this.logger.warn(`Webhook endpoint ${endpoint.id}: round failed: ${String(error)}`);
      return false;
    } finally {
      await this.dataSource.query(
        `UPDATE webhook_endpoints SET lease_owner = NULL, lease_until = NULL
         WHERE id = $1 AND lease_owner = $2`,
        [endpoint.id, this.instanceId],
      );
    }
  }

  /** True when the batch was full (more events may be waiting). */
  private async serve(endpoint: Claimed): Promise<boolean> {
    const query = Object.assign(new EventListQuery(), {
      after: endpoint.cursor,
      limit: EVENTS_PER_ROUND,
    });
    const { items } = await this.feed.list(endpoint.application_id, query);
    const secrets = this.secretsOf(endpoint);
    // Events of types the endpoint does not take are passed over; the cursor moves past them.
    let cursor = endpoint.cursor;
    for (const event of items) {
      if (endpoint.event_types.length > 0 && !endpoint.event_types.includes(event.eventType)) {
        cursor = String(event.id);
        continue;
      }
      if (this.stopped || !this.leaseLeft(endpoint)) break;
      const outcome = await sendWebhook(
        {
          url: endpoint.url,
          secrets,
          messageId: webhookId(event),
          body: webhookBody(event),
        },
        this.addressPolicy,
      );
      const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
      if (!ok) {
        await this.failed(endpoint, cursor, event, outcome);
        return false;
      }
      cursor = String(event.id);
      if (!(await this.delivered(endpoint, cursor, outcome))) return false;
    }
    if (cursor !== endpoint.cursor) await this.moveCursor(endpoint, cursor);
    return items.length === EVENTS_PER_ROUND;
  }

  /** The current secret, and the one before a rotation while its overlap lasts. */
  private secretsOf(endpoint: Claimed): string[] {
    const secrets = [this.endpoints.secretOf(endpoint.secret, endpoint.id)];
    const until = endpoint.previous_secret_until;
    if (endpoint.previous_secret !== null && until !== null && until > this.clock.now()) {
      secrets.push(this.endpoints.secretOf(endpoint.previous_secret, endpoint.id));
    }
    return secrets;
  }

  private leaseLeft(endpoint: Claimed): boolean {
    return endpoint.lease_until.getTime() - this.clock.now().getTime() > LEASE_MARGIN_MS;
  }

  /** After a 2xx: the cursor moves past the event; false when the lease was lost meanwhile. */
  private async delivered(
    endpoint: Claimed,
    cursor: string,
    outcome: SendOutcome,
  ): Promise<boolean> {
    const moved = await this.moveCursor(endpoint, cursor);
    await this.log(endpoint.id, cursor, outcome, null);
    endpoint.cursor = cursor;
    endpoint.attempts = 0;
    endpoint.failing_since = null;
    return moved;
  }

  private async moveCursor(endpoint: Claimed, cursor: string): Promise<boolean> {
    const rows = await this.dataSource.query<unknown[]>(
      `WITH moved AS (
         UPDATE webhook_endpoints
         SET cursor = $3, attempts = 0, failing_since = NULL, next_attempt_at = NULL,
             updated_at = now()
         WHERE id = $1 AND lease_owner = $2 RETURNING id)
       SELECT id FROM moved`,
      [endpoint.id, this.instanceId, cursor],
    );
    return rows.length > 0;
  }

  /**
   * After a failure the event stays at the head (the cursor moves only past events skipped by
   * type before it) and the next attempt waits: Retry-After when the receiver sent one (capped),
   * the backoff schedule otherwise. 410 Gone, or 24 hours of failures, disables the endpoint.
   */
  private async failed(
    endpoint: Claimed,
    cursor: string,
    event: EventView,
    outcome: SendOutcome,
  ): Promise<void> {
    const now = this.clock.now();
    const failingSince = endpoint.failing_since ?? now;
    const failures = endpoint.attempts + 1;
    const reason =
      outcome.status === 410
        ? 'the endpoint answered 410 Gone'
        : now.getTime() - failingSince.getTime() >= DISABLE_AFTER_FAILING_MS
          ? 'deliveries failed for 24 hours'
          : null;
    const wait = retryAfterMs(outcome.retryAfter, now) ?? backoffMs(failures);
    const next = reason === null ? new Date(now.getTime() + wait) : null;
    await this.dataSource.transaction(async (manager) => {
      const rows = await manager.query<unknown[]>(
        `WITH failed AS (
           UPDATE webhook_endpoints
           SET cursor = $3, attempts = $4, failing_since = $5, next_attempt_at = $6,
               enabled = $7, disabled_reason = $8, updated_at = now()
           WHERE id = $1 AND lease_owner = $2 RETURNING id)
         SELECT id FROM failed`,
        [
          endpoint.id,
          this.instanceId,
          cursor,
          failures,
          failingSince,
          next,
          reason === null,
          reason,
        ],
      );
      if (rows.length === 0 || reason === null) return;
      await this.audit.record(
        {
          applicationId: endpoint.application_id,
          actorUserId: null,
          action: 'webhook.disable',
          target: `webhook:${endpoint.id}`,
          details: { reason, via: 'delivery', eventId: String(event.id) },
          ip: '',
        },
        manager,
      );
    });
    await this.log(endpoint.id, String(event.id), outcome, next);
  }

  /** One row of the delivery log; the endpoint's rows beyond the last DELIVERY_LOG_SIZE go. */
  private async log(
    endpointId: number,
    eventId: string,
    outcome: SendOutcome,
    next: Date | null,
  ): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO webhook_deliveries
         (endpoint_id, event_id, attempted_at, status_code, latency_ms, error, next_attempt_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        endpointId,
        eventId,
        this.clock.now(),
        outcome.status,
        outcome.latencyMs,
        outcome.error,
        next,
      ],
    );
    await this.dataSource.query(
      `DELETE FROM webhook_deliveries WHERE endpoint_id = $1 AND id <= (
         SELECT id FROM webhook_deliveries WHERE endpoint_id = $1
         ORDER BY id DESC OFFSET $2 LIMIT 1)`,
      [endpointId, DELIVERY_LOG_SIZE],
    );
  }
}
