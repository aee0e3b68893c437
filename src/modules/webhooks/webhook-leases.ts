import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AuditLog } from '../audit/audit-log.service';

/** How long a claimed endpoint stays this instance's (docs/webhooks.md, "Several instances"). */
export const LEASE_MS = 30_000;

/** An endpoint as claimed for one delivery. */
export interface Claimed {
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
  /** The generation claimed: every write of the delivery is guarded by it. */
  generation: number;
}

/** What a failed attempt leaves on its endpoint (docs/webhooks.md, "Retries"). */
export interface Failure {
  /** Past the events skipped by type before the failed one; the failed one stays at the head. */
  cursor: string;
  attempts: number;
  failingSince: Date;
  next: Date | null;
  /** Why the endpoint stops (410 Gone, 24 hours of failures); null: it goes on. */
  disabledReason: string | null;
  eventId: string;
}

/**
 * The delivery engine's statements on webhook_endpoints: the lease (claim, release) and the
 * bookkeeping of an attempt. Every bookkeeping write is guarded by this instance's lease, the
 * generation claimed and `enabled`, so an owner's change (disable, URL, secret, event types,
 * replay, delete: each bumps the generation or removes the row, webhook-endpoints.service.ts)
 * made while an attempt is in flight wins: the attempt's write matches no row.
 */
@Injectable()
export class WebhookLeases {
  /** This instance's lease owner name. */
  readonly owner = randomUUID();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly audit: AuditLog,
  ) {}

  /**
   * One statement: up to `limit` enabled, due endpoints whose lease is free or expired become
   * this instance's, never one it is delivering to now (`busy`). The ids after `after` come
   * first, then from the lowest (round robin).
   */
  claim(now: Date, limit: number, after: number, busy: number[]): Promise<Claimed[]> {
    return this.dataSource.query<Claimed[]>(
      `WITH claimed AS (
         UPDATE webhook_endpoints SET lease_owner = $1, lease_until = $2
         WHERE id IN (
           SELECT id FROM webhook_endpoints
           WHERE enabled AND (lease_until IS NULL OR lease_until < $3)
             AND (next_attempt_at IS NULL OR next_attempt_at <= $3)
             AND NOT (id = ANY($6::int[]))
           ORDER BY id <= $5, id LIMIT $4 FOR UPDATE SKIP LOCKED)
         AND (lease_until IS NULL OR lease_until < $3)
         RETURNING id, application_id, url, event_types, secret, previous_secret,
                   previous_secret_until, cursor::text AS cursor, attempts,
                   failing_since, lease_until, generation)
       SELECT * FROM claimed`,
      [this.owner, new Date(now.getTime() + LEASE_MS), now, limit, after, busy],
    );
  }

  async release(endpointId: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE webhook_endpoints SET lease_owner = NULL, lease_until = NULL
       WHERE id = $1 AND lease_owner = $2`,
      [endpointId, this.owner],
    );
  }

  /** After a 2xx (or past skipped events); false when the endpoint is no longer as claimed. */
  async moveCursor(endpoint: Claimed, cursor: string): Promise<boolean> {
    const rows = await this.dataSource.query<unknown[]>(
      `WITH moved AS (
         UPDATE webhook_endpoints
         SET cursor = $3, attempts = 0, failing_since = NULL, next_attempt_at = NULL,
             updated_at = now()
         WHERE id = $1 AND lease_owner = $2 AND generation = $4 AND enabled RETURNING id)
       SELECT id FROM moved`,
      [endpoint.id, this.owner, cursor, endpoint.generation],
    );
    return rows.length > 0;
  }

  /**
   * Records a failure (and the disable it causes, audited as the delivery's, in the same
   * transaction); false when the endpoint is no longer as claimed, and then nothing is written.
   * An attempt can only keep an endpoint enabled or disable it, never enable it.
   */
  recordFailure(endpoint: Claimed, failure: Failure): Promise<boolean> {
    const stays = failure.disabledReason === null;
    return this.dataSource.transaction(async (manager) => {
      const rows = await manager.query<unknown[]>(
        `WITH failed AS (
           UPDATE webhook_endpoints
           SET cursor = $3, attempts = $4, failing_since = $5, next_attempt_at = $6,
               enabled = $7, disabled_reason = $8, updated_at = now()
           WHERE id = $1 AND lease_owner = $2 AND generation = $9 AND enabled RETURNING id)
         SELECT id FROM failed`,
        [
          endpoint.id,
          this.owner,
          failure.cursor,
          failure.attempts,
          failure.failingSince,
          failure.next,
          stays,
          failure.disabledReason,
          endpoint.generation,
        ],
      );
      if (rows.length === 0) return false;
      if (stays) return true;
      await this.audit.record(
        {
          applicationId: endpoint.application_id,
          actorUserId: null,
          action: 'webhook.disable',
          target: `webhook:${endpoint.id}`,
          details: { reason: failure.disabledReason, via: 'delivery', eventId: failure.eventId },
          ip: '',
        },
        manager,
      );
      return true;
    });
  }
}
