import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { Metrics } from '../../common/metrics/metrics';
import { ShutdownState } from '../../common/http/shutdown-state';
import { EventFeedService } from '../events/event-feed.service';
import { EventListQuery } from '../events/event-query';
import type { EventView } from '../events/event-view';
import { InFlight, type DeliveryEngine, type Started } from './delivery-scheduler';
import { backoffMs, retryAfterMs } from './retry-schedule';
import { WebhookDeliveryLog } from './webhook-delivery-log';
import { webhookEndpointLags } from './webhook-lag';
import { Claimed, Failure, WebhookLeases } from './webhook-leases';
import { isDelivered, webhookBody, webhookId } from './webhook-message';
import { WebhookPoster } from './webhook-poster';
import { DELIVERY_TIMEOUT_MS, SendOutcome } from './webhook-sender';

export { LEASE_MS } from './webhook-leases';

/**
 * Endpoint deliveries one instance runs at once, and so the most it claims at a time
 * (docs/webhooks.md, "Several instances").
 */
export const MAX_CONCURRENT_DELIVERIES = 20;
/** A POST starts only while this much of the lease is left, so it ends before the lease does. */
const LEASE_MARGIN_MS = DELIVERY_TIMEOUT_MS + 5_000;
/** Events read per endpoint and delivery (at most one POST each). */
const EVENTS_PER_DELIVERY = 50;
/** An endpoint that has failed for this long without a success is disabled. */
export const DISABLE_AFTER_FAILING_MS = 24 * 60 * 60 * 1000;

export type { Started } from './delivery-scheduler';

/**
 * The delivery engine (docs/webhooks.md). `startDue` claims, up to the room left of
 * MAX_CONCURRENT_DELIVERIES, the enabled endpoints that are due and not leased by another
 * instance, and starts one delivery per endpoint without waiting for any: each runs on its own,
 * so a slow or dead receiver holds only its own lease. A delivery sends the events after the
 * endpoint's cursor, in commit order, as the forward feed of GET /events?after= reads them
 * (EventFeedService), one POST at a time. The cursor moves only after a 2xx, and only while the
 * endpoint is still as claimed (WebhookLeases: lease, generation, enabled); a failure keeps the
 * event at the head and schedules the retry. The scheduler claims again as soon as there is
 * room; tests call runRound, which awaits what it started.
 */
@Injectable()
export class WebhookDeliveryService implements DeliveryEngine {
  private readonly logger = new Logger('Webhooks');
  /** The last endpoint claimed: the next claim starts after it, so each endpoint gets its turn. */
  private claimedUpTo = 0;
  /** The deliveries running in this instance, by endpoint id; claims one after another. */
  private readonly inFlight: InFlight<number>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly feed: EventFeedService,
    private readonly leases: WebhookLeases,
    private readonly poster: WebhookPoster,
    private readonly log: WebhookDeliveryLog,
    shutdown: ShutdownState,
    @Inject(Metrics) metrics: Metrics,
  ) {
    this.inFlight = new InFlight(MAX_CONCURRENT_DELIVERIES, shutdown);
    metrics.onWebhooksScrape(() => webhookEndpointLags(this.dataSource, this.clock.now()));
  }

  /** This instance's lease owner name. */
  get instanceId(): string {
    return this.leases.owner;
  }

  /** No more claims or POSTs from now on; a POST in flight finishes (or times out). */
  stop(): void {
    this.inFlight.stop();
  }

  /** Resolves once no delivery of this instance runs (each has released its lease). */
  drain(): Promise<void> {
    return this.inFlight.drain();
  }

  /** Claims due endpoints into the room left and starts their deliveries (not awaited). */
  startDue(): Promise<Started> {
    return this.inFlight.claim(() => this.claimAndStart());
  }

  /**
   * startDue, then waits for the deliveries it started: how many endpoints it served and
   * whether work is left (an endpoint read a full batch, so more events may wait behind it).
   */
  async runRound(): Promise<{ served: number; more: boolean }> {
    const { deliveries } = await this.startDue();
    const full = await Promise.all(deliveries);
    return { served: deliveries.length, more: full.includes(true) };
  }

  private get stopped(): boolean {
    return this.inFlight.stopped;
  }

  private async claimAndStart(): Promise<Started> {
    const room = this.inFlight.room;
    if (this.stopped || room <= 0) return { deliveries: [], full: room <= 0 };
    const claimed = await this.leases.claim(
      this.clock.now(),
      room,
      this.claimedUpTo,
      this.inFlight.busy,
    );
    const wrapped = claimed.filter((endpoint) => endpoint.id <= this.claimedUpTo);
    this.claimedUpTo = Math.max(0, ...(wrapped.length > 0 ? wrapped : claimed).map((e) => e.id));
    return {
      deliveries: claimed.map((endpoint) => this.begin(endpoint)),
      full: claimed.length === room,
    };
  }

  /** One endpoint's delivery, on its own: it never rejects, and always releases its lease. */
  private begin(endpoint: Claimed): Promise<boolean> {
    return this.inFlight.track(endpoint.id, this.deliverAndRelease(endpoint));
  }

  private async deliverAndRelease(endpoint: Claimed): Promise<boolean> {
    let more = false;
    try {
      more = await this.deliver(endpoint);
    } catch (error) {
      this.logger.warn(`Webhook endpoint ${endpoint.id}: delivery failed: ${String(error)}`);
    }
    try {
      await this.leases.release(endpoint.id);
    } catch (error) {
      // The lease then expires on its own (LEASE_MS).
      this.logger.warn(`Webhook endpoint ${endpoint.id}: lease not released: ${String(error)}`);
    }
    return more;
  }

  /** True when the batch was full (more events may be waiting). */
  private async deliver(endpoint: Claimed): Promise<boolean> {
    const query = Object.assign(new EventListQuery(), {
      after: endpoint.cursor,
      limit: EVENTS_PER_DELIVERY,
    });
    const { items } = await this.feed.list(endpoint.application_id, query);
    const takes = (event: EventView): boolean =>
      endpoint.event_types.length === 0 || endpoint.event_types.includes(event.eventType);
    const users = await this.poster.usersOf(endpoint.application_id, items.filter(takes));
    const secrets = {
      id: endpoint.id,
      secret: endpoint.secret,
      previousSecret: endpoint.previous_secret,
      previousSecretUntil: endpoint.previous_secret_until,
    };
    // Events of types the endpoint does not take are passed over; the cursor moves past them.
    let cursor = endpoint.cursor;
    for (const event of items) {
      if (!takes(event)) {
        cursor = String(event.id);
        continue;
      }
      if (this.stopped || !this.leaseLeft(endpoint)) break;
      const outcome = await this.poster.post(
        endpoint.url,
        secrets,
        webhookId(event),
        webhookBody(event, users.get(event.userId ?? '') ?? null),
      );
      if (!isDelivered(outcome.status)) {
        await this.failed(endpoint, cursor, event, outcome);
        return false;
      }
      cursor = String(event.id);
      const moved = await this.leases.moveCursor(endpoint, cursor);
      await this.log.record(endpoint.id, 'delivery', cursor, outcome, null);
      // An owner's change meanwhile (or a lost lease): stop; the change decides what comes next.
      if (!moved) return false;
      endpoint.cursor = cursor;
      endpoint.attempts = 0;
      endpoint.failing_since = null;
    }
    if (cursor !== endpoint.cursor && !(await this.leases.moveCursor(endpoint, cursor))) {
      return false;
    }
    return items.length === EVENTS_PER_DELIVERY;
  }

  private leaseLeft(endpoint: Claimed): boolean {
    return endpoint.lease_until.getTime() - this.clock.now().getTime() > LEASE_MARGIN_MS;
  }

  /**
   * After a failure the event stays at the head (the cursor moves only past events skipped by
   * type before it) and the next attempt waits: Retry-After when the receiver sent one (capped),
   * the backoff schedule otherwise. 410 Gone, or 24 hours of failures, disables the endpoint.
   * Nothing is recorded when an owner changed the endpoint while the attempt was in flight.
   */
  private async failed(
    endpoint: Claimed,
    cursor: string,
    event: EventView,
    outcome: SendOutcome,
  ): Promise<void> {
    const now = this.clock.now();
    const failingSince = endpoint.failing_since ?? now;
    const attempts = endpoint.attempts + 1;
    const disabledReason =
      outcome.status === 410
        ? 'the endpoint answered 410 Gone'
        : now.getTime() - failingSince.getTime() >= DISABLE_AFTER_FAILING_MS
          ? 'deliveries failed for 24 hours'
          : null;
    const wait = retryAfterMs(outcome.retryAfter, now) ?? backoffMs(attempts);
    const next = disabledReason === null ? new Date(now.getTime() + wait) : null;
    const failure: Failure = {
      cursor,
      attempts,
      failingSince,
      next,
      disabledReason,
      eventId: String(event.id),
    };
    const recorded = await this.leases.recordFailure(endpoint, failure);
    await this.log.record(
      endpoint.id,
      'delivery',
      String(event.id),
      outcome,
      recorded ? next : null,
    );
  }
}
