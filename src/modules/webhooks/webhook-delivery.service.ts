import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import {
  Metrics,
  type WebhookEndpointLag,
  type WebhookOutcome,
} from '../../common/metrics/metrics';
import { ShutdownState } from '../../common/http/shutdown-state';
import { AppConfig } from '../../config/app-config';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import type { AuditDetails } from '../audit/audit-log.entity';
import { AuditLog } from '../audit/audit-log.service';
import { EventFeedService } from '../events/event-feed.service';
import { EventListQuery } from '../events/event-query';
import type { EventView } from '../events/event-view';
import { AppUsersService } from '../users/app-users.service';
import type { UserView } from '../users/user-view';
import type { AddressPolicy } from './webhook-address';
import { backoffMs, retryAfterMs } from './retry-schedule';
import type { WebhookDelivery, WebhookDeliveryKind } from './webhook-delivery.entity';
import type { WebhookEndpoint } from './webhook-endpoint.entity';
import {
  DELIVERY_LOG_SIZE,
  recordWebhookAudit,
  WebhookActor,
  WebhookEndpointsService,
} from './webhook-endpoints.service';
import { DELIVERY_TIMEOUT_MS, SendOutcome, sendWebhook } from './webhook-sender';

/** How long a claimed endpoint stays this instance's (docs/webhooks.md, "Several instances"). */
export const LEASE_MS = 30_000;
/** A POST starts only while this much of the lease is left, so it ends before the lease does. */
const LEASE_MARGIN_MS = DELIVERY_TIMEOUT_MS + 5_000;
/** Endpoints one instance claims per round. */
const CLAIM_BATCH = 20;
/** Events read per endpoint and round (at most one POST each). */
const EVENTS_PER_ROUND = 50;
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
  /** The generation claimed: every update of the round is guarded by it. */
  generation: number;
}

/** The secrets of an endpoint, as a claim or a row gives them. */
type Sealed = Pick<Claimed, 'id' | 'secret' | 'previous_secret' | 'previous_secret_until'>;

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

/**
 * The delivery engine (docs/webhooks.md). A round claims the enabled endpoints that are due and
 * not leased by another instance, then for each one sends the events after its cursor, in
 * commit order, as the forward feed of GET /events?after= reads them (EventFeedService), one
 * POST at a time. The cursor moves only after a 2xx, and only while this instance still holds
 * the lease and the endpoint is still at the generation claimed (a replay or URL change bumps
 * it, and the round stops); a failure keeps the event at the head and schedules the retry.
 * Resends and test events are sent out of band, outside rounds and leases.
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
    private readonly users: AppUsersService,
    @Inject(Metrics) private readonly metrics: Metrics,
  ) {
    metrics.onWebhooksScrape(() => this.endpointLags());
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
                   failing_since, lease_until, generation)
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
    const takes = (event: EventView): boolean =>
      endpoint.event_types.length === 0 || endpoint.event_types.includes(event.eventType);
    const users = await this.usersOf(endpoint.application_id, items.filter(takes));
    // Events of types the endpoint does not take are passed over; the cursor moves past them.
    let cursor = endpoint.cursor;
    for (const event of items) {
      if (!takes(event)) {
        cursor = String(event.id);
        continue;
      }
      if (this.stopped || !this.leaseLeft(endpoint)) break;
      const outcome = await sendWebhook(
        {
          url: endpoint.url,
          secrets,
          messageId: webhookId(event),
          body: webhookBody(event, users.get(event.userId ?? '') ?? null),
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

  /**
   * Sends one committed event of the endpoint's application again, now, with its webhook-id
   * (evt_<id>): logged as a resend; the cursor and the failure state stay as they are. An event
   * that is not one of the application's committed events (the forward feed's): not found.
   */
  async resend(endpointId: number, eventId: string, actor: WebhookActor): Promise<WebhookDelivery> {
    const endpoint = await this.endpoints.get(endpointId, actor);
    const event = await this.committedEvent(endpoint.applicationId, eventId);
    const users = await this.usersOf(endpoint.applicationId, [event]);
    const outcome = await sendWebhook(
      {
        url: endpoint.url,
        secrets: this.secretsOf(sealedOf(endpoint)),
        messageId: webhookId(event),
        body: webhookBody(event, users.get(event.userId ?? '') ?? null),
      },
      this.addressPolicy,
    );
    const attempt = await this.log(endpoint.id, 'resend', String(event.id), outcome, null);
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
    const outcome = await sendWebhook(
      {
        url: endpoint.url,
        secrets: this.secretsOf(sealedOf(endpoint)),
        messageId: `test_${randomUUID()}`,
        body: JSON.stringify({
          type: TEST_EVENT_TYPE,
          timestamp: this.clock.now().toISOString(),
          data: { applicationId: endpoint.applicationId, endpointId: endpoint.id },
        }),
      },
      this.addressPolicy,
    );
    const attempt = await this.log(endpoint.id, 'test', null, outcome, null);
    await this.audited(actor, endpoint, 'webhook.test', { statusCode: outcome.status });
    return attempt;
  }

  /** The users the events name, as the application sees them, in one query. */
  private usersOf(applicationId: number, events: EventView[]): Promise<Map<string, UserView>> {
    const ids = events.flatMap((event) => (event.userId === null ? [] : [event.userId]));
    return this.users.viewsOf(applicationId, ids);
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

  private audited(
    actor: WebhookActor,
    endpoint: WebhookEndpoint,
    action: string,
    details: AuditDetails,
  ): Promise<void> {
    return recordWebhookAudit(this.audit, undefined, actor, endpoint, action, details);
  }

  /** The current secret, and the one before a rotation while its overlap lasts. */
  private secretsOf(endpoint: Sealed): string[] {
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
    await this.log(endpoint.id, 'delivery', cursor, outcome, null);
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
         WHERE id = $1 AND lease_owner = $2 AND generation = $4 RETURNING id)
       SELECT id FROM moved`,
      [endpoint.id, this.instanceId, cursor, endpoint.generation],
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
    const recorded = await this.dataSource.transaction(async (manager) => {
      const rows = await manager.query<unknown[]>(
        `WITH failed AS (
           UPDATE webhook_endpoints
           SET cursor = $3, attempts = $4, failing_since = $5, next_attempt_at = $6,
               enabled = $7, disabled_reason = $8, updated_at = now()
           WHERE id = $1 AND lease_owner = $2 AND generation = $9 RETURNING id)
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
          endpoint.generation,
        ],
      );
      // A replay or URL change meanwhile: this failure no longer holds anything back.
      if (rows.length === 0) return false;
      if (reason === null) return true;
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
      return true;
    });
    await this.log(endpoint.id, 'delivery', String(event.id), outcome, recorded ? next : null);
  }

  /**
   * Every enabled endpoint's lag (the age of the oldest event after its cursor, 0 when caught
   * up) and whether it is failing: read by the metrics at each scrape, one statement.
   */
  private async endpointLags(): Promise<WebhookEndpointLag[]> {
    const rows = await this.dataSource.query<
      { endpoint_id: number; lag_seconds: number; failing: boolean }[]
    >(
      `SELECT w.id AS endpoint_id, w.failing_since IS NOT NULL AS failing,
              COALESCE(GREATEST(0, EXTRACT(EPOCH FROM $1::timestamptz - oldest.created_at)), 0)::float8
                AS lag_seconds
       FROM webhook_endpoints w
       LEFT JOIN LATERAL (
         SELECT e.created_at FROM events e
         WHERE e.application_id = w.application_id AND e.id > w.cursor
         ORDER BY e.id LIMIT 1) oldest ON true
       WHERE w.enabled`,
      [this.clock.now()],
    );
    return rows.map((row) => ({
      endpointId: row.endpoint_id,
      lagSeconds: row.lag_seconds,
      failing: row.failing,
    }));
  }

  /** One row of the delivery log; the endpoint's rows beyond the last DELIVERY_LOG_SIZE go. */
  private async log(
    endpointId: number,
    kind: WebhookDeliveryKind,
    eventId: string | null,
    outcome: SendOutcome,
    next: Date | null,
  ): Promise<WebhookDelivery> {
    this.metrics.webhookDelivery(kind, deliveryOutcome(outcome));
    const [row] = await this.dataSource.query<LogRow[]>(
      `WITH logged AS (
         INSERT INTO webhook_deliveries (endpoint_id, kind, event_id, attempted_at, status_code,
                                         latency_ms, error, next_attempt_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
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
  return outcome.status >= 200 && outcome.status < 300 ? 'success' : 'http_error';
}

function sealedOf(endpoint: WebhookEndpoint): Sealed {
  return {
    id: endpoint.id,
    secret: endpoint.secret,
    previous_secret: endpoint.previousSecret,
    previous_secret_until: endpoint.previousSecretUntil,
  };
}
