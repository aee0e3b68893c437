import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, FindOptionsWhere } from 'typeorm';
import { Clock } from '../../common/clock';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { AppConfig } from '../../config/app-config';
import { ApplicationsService } from '../applications/applications.service';
import type { AuditDetails } from '../audit/audit-log.entity';
import { AuditLog } from '../audit/audit-log.service';
import { commitHorizon } from '../events/commit-horizon';
import { EVENT_TYPES } from '../events/event-types';
import { WebhookDelivery } from './webhook-delivery.entity';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { newWebhookSecret, WebhookSecretBox } from './webhook-secret';
import { checkWebhookUrl } from '../../common/http/webhook-url';

/** Delivery attempts kept per endpoint in webhook_deliveries. */
export const DELIVERY_LOG_SIZE = 100;
/** At most this many endpoints per application (docs/webhooks.md). */
export const MAX_ENDPOINTS_PER_APPLICATION = 10;
const MAX_DESCRIPTION_LENGTH = 200;
/**
 * First key of the advisory lock (WEBHOOK_ENDPOINTS_LOCK, application id) that serialises the
 * creations of one application's endpoints, so two cannot both pass the count ("whep").
 */
const WEBHOOK_ENDPOINTS_LOCK = 2003330416;
/** How long the secret before a rotation keeps signing beside the new one. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

export interface NewEndpoint {
  applicationId: number;
  url: string;
  eventTypes: string[];
  description?: string;
}

/**
 * Who changes an endpoint, for its audit entry: the admin CLI (no actor), or a console user acting
 * in one application, whose endpoint lookups are scoped to it (another application's endpoint is
 * not found).
 */
export type WebhookActor =
  { via: 'cli' } | { via: 'console'; applicationId: number; userId: string; ip: string };

/** A change by `actor`; `confirm` runs in the change's transaction, after its checks. */
export interface WebhookChange {
  actor: WebhookActor;
  /** Spends what the change needs (a passkey confirmation): both commit or neither does. */
  confirm?: (manager: EntityManager) => Promise<void>;
}

export const BY_CLI: WebhookChange = { actor: { via: 'cli' } };

/**
 * Every owner's change that bears on delivery (enable, disable, event types, URL, secret,
 * replay) moves the endpoint's generation on; the delivery engine's writes are guarded by the
 * generation it claimed (webhook-leases.ts), so the owner's change wins over an attempt in flight.
 */
const bump = (): string => 'generation + 1';

export interface EndpointPatch {
  eventTypes?: string[];
  description?: string;
  /** true also clears the failure state, like `webhook enable`. */
  enabled?: boolean;
}

/** Where a replay starts: an event of the application, or a time (RFC 3339 text). */
export type ReplayFrom = { fromEventId: string } | { fromTime: string };

export interface Replayed {
  endpoint: WebhookEndpoint;
  /** Committed events of the endpoint's types now ahead of its cursor. */
  events: number;
}

/** A new endpoint and its signing secret in clear, which is never shown again. */
export interface CreatedEndpoint {
  endpoint: WebhookEndpoint;
  secret: string;
}

/**
 * Endpoint administration (the admin CLI's `webhook` commands and the console's Webhooks tab;
 * owner of webhook_endpoints). Each change is audited in the transaction of the change: from the
 * CLI with `via: "cli"` and no actor, from the console with `via: "console"`, the user and the
 * address.
 *
 * Why this service is larger: it is one job, the owner's changes to webhook_endpoints, and every
 * change follows the same rule: the actor-scoped lookup, the check, the generation moved on and
 * the audit entry, in one transaction. The replay and the secret rotation are such changes; apart,
 * each would repeat that rule.
 */
@Injectable()
export class WebhookEndpointsService {
  private readonly box: WebhookSecretBox;

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly applications: ApplicationsService,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
  ) {
    this.box = new WebhookSecretBox(config.signingKeysSecret);
  }

  /**
   * Creates an endpoint that receives the events committed from now on: its cursor starts at
   * the application's commit horizon, so no event before it is sent and none after is missed.
   */
  async create(input: NewEndpoint, change: WebhookChange = BY_CLI): Promise<CreatedEndpoint> {
    const url = this.checkUrl(input.url);
    const eventTypes = checkEventTypes(input.eventTypes);
    const description = checkDescription(input.description ?? '');
    await this.applications.get(input.applicationId);
    const cursor = await commitHorizon(this.dataSource, input.applicationId);
    const secret = newWebhookSecret();
    const endpoint = await this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1, $2)', [
        WEBHOOK_ENDPOINTS_LOCK,
        input.applicationId,
      ]);
      const count = await manager.count(WebhookEndpoint, {
        where: { applicationId: input.applicationId },
      });
      if (count >= MAX_ENDPOINTS_PER_APPLICATION) {
        throw new AppError(
          ErrorCode.Conflict,
          `An application has at most ${MAX_ENDPOINTS_PER_APPLICATION} webhook endpoints`,
        );
      }
      await change.confirm?.(manager);
      const repo = manager.getRepository(WebhookEndpoint);
      const row = await repo.save(
        repo.create({
          applicationId: input.applicationId,
          url,
          description,
          eventTypes,
          cursor,
          secret: '',
        }),
      );
      row.secret = this.box.seal(secret, row.id);
      await repo.update(row.id, { secret: row.secret });
      await this.record(manager, change, row, 'webhook.create', { url, eventTypes });
      return row;
    });
    return { endpoint, secret };
  }

  async list(applicationId: number): Promise<WebhookEndpoint[]> {
    await this.applications.get(applicationId);
    return this.dataSource
      .getRepository(WebhookEndpoint)
      .find({ where: { applicationId }, order: { id: 'ASC' } });
  }

  /** One endpoint; not found when unknown or, for a console actor, of another application. */
  async get(id: number, actor: WebhookActor = BY_CLI.actor): Promise<WebhookEndpoint> {
    const row = await this.dataSource
      .getRepository(WebhookEndpoint)
      .findOne({ where: scoped(id, actor) });
    if (!row) throw notFound();
    return row;
  }

  async remove(id: number, change: WebhookChange = BY_CLI): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const row = await this.locked(manager, id, change.actor);
      await change.confirm?.(manager);
      await manager.getRepository(WebhookEndpoint).delete(id);
      await this.record(manager, change, row, 'webhook.delete', { url: row.url });
    });
  }

  /**
   * Enabling clears the failure state, so delivery resumes at once from the event that was
   * held back; disabling keeps the cursor, so re-enabling later sends what came meanwhile.
   * Either moves the generation on: an attempt in flight records nothing afterwards, so its
   * failure cannot re-enable a disabled endpoint nor its success move the cursor.
   */
  setEnabled(
    id: number,
    enabled: boolean,
    change: WebhookChange = BY_CLI,
  ): Promise<WebhookEndpoint> {
    return this.update(id, { enabled }, change);
  }

  /**
   * Event types and description (audited as webhook.update with the fields that changed), and
   * `enabled` as setEnabled (webhook.enable / webhook.disable), in one transaction.
   */
  async update(
    id: number,
    patch: EndpointPatch,
    change: WebhookChange = BY_CLI,
  ): Promise<WebhookEndpoint> {
    const eventTypes = patch.eventTypes && checkEventTypes(patch.eventTypes);
    const description =
      patch.description === undefined ? undefined : checkDescription(patch.description);
    return this.dataSource.transaction(async (manager) => {
      const repo = manager.getRepository(WebhookEndpoint);
      const row = await this.locked(manager, id, change.actor);
      await change.confirm?.(manager);
      const fields: { eventTypes?: string[]; description?: string } = {};
      if (eventTypes && !sameSet(eventTypes, row.eventTypes)) fields.eventTypes = eventTypes;
      if (description !== undefined && description !== row.description) {
        fields.description = description;
      }
      if (Object.keys(fields).length > 0) {
        // New event types decide what the attempt in flight may record: it records nothing.
        await repo.update(id, fields.eventTypes ? { ...fields, generation: bump } : fields);
        await this.record(manager, change, row, 'webhook.update', fields);
      }
      if (patch.enabled !== undefined) {
        const enabled = patch.enabled;
        await repo.update(
          id,
          enabled
            ? {
                enabled,
                disabledReason: null,
                failingSince: null,
                nextAttemptAt: null,
                attempts: 0,
                generation: bump,
              }
            : { enabled, disabledReason: null, generation: bump },
        );
        await this.record(manager, change, row, enabled ? 'webhook.enable' : 'webhook.disable', {});
      }
      return repo.findOneByOrFail({ id });
    });
  }

  /**
   * A new URL (the URL rule of create). The generation moves on, so a round in flight to the old
   * URL cannot move the cursor or record its failure: the event it was sending goes to the new
   * URL next. The failure state of the old URL is cleared: the new one is tried at once.
   */
  async changeUrl(
    id: number,
    rawUrl: string,
    change: WebhookChange = BY_CLI,
  ): Promise<WebhookEndpoint> {
    const url = this.checkUrl(rawUrl);
    return this.dataSource.transaction(async (manager) => {
      const repo = manager.getRepository(WebhookEndpoint);
      const row = await this.locked(manager, id, change.actor);
      await change.confirm?.(manager);
      await repo.update(id, {
        url,
        generation: bump,
        attempts: 0,
        failingSince: null,
        nextAttemptAt: null,
      });
      await this.record(manager, change, row, 'webhook.update_url', {
        url,
        previousUrl: row.url,
      });
      return repo.findOneByOrFail({ id });
    });
  }

  /**
   * Moves the cursor back to just before an event of the application, or before the first
   * event created at or after a time, so the rounds send again from there, in order. The cursor
   * never moves forward (no event not yet delivered is skipped) nor past the commit horizon.
   * The generation moves on, so a round in flight cannot put the cursor back where it was, and
   * the failure state is cleared. An event id that is not one of the application's: not found.
   */
  async replay(id: number, from: ReplayFrom, change: WebhookChange = BY_CLI): Promise<Replayed> {
    const current = await this.get(id, change.actor);
    const target = await this.replayCursor(current.applicationId, from);
    const endpoint = await this.dataSource.transaction(async (manager) => {
      const repo = manager.getRepository(WebhookEndpoint);
      const row = await this.locked(manager, id, change.actor);
      await change.confirm?.(manager);
      await repo.update(id, {
        cursor: () => `LEAST(cursor, ${target}::bigint)`,
        generation: bump,
        attempts: 0,
        failingSince: null,
        nextAttemptAt: null,
      });
      const replayed = await repo.findOneByOrFail({ id });
      await this.record(manager, change, row, 'webhook.replay', {
        ...('fromEventId' in from
          ? { fromEventId: from.fromEventId }
          : { fromTime: from.fromTime }),
        cursor: replayed.cursor,
        previousCursor: row.cursor,
      });
      return replayed;
    });
    return { endpoint, events: await this.eventsAhead(endpoint) };
  }

  /** The last DELIVERY_LOG_SIZE attempts of an endpoint, newest first. */
  async deliveries(id: number, actor: WebhookActor = BY_CLI.actor): Promise<WebhookDelivery[]> {
    await this.get(id, actor);
    return this.dataSource
      .getRepository(WebhookDelivery)
      .find({ where: { endpointId: id }, order: { id: 'DESC' }, take: DELIVERY_LOG_SIZE });
  }

  /** The URL rule (docs/webhooks.md): the canonical URL, or invalid_request / insecure_endpoint. */
  checkUrl(url: string): string {
    return checkWebhookUrl(url, this.config.webhooksAllowInsecure);
  }

  /** Where a replay puts the cursor (before LEAST with the current one). */
  private async replayCursor(applicationId: number, from: ReplayFrom): Promise<string> {
    const horizon = BigInt(await commitHorizon(this.dataSource, applicationId));
    let before: bigint;
    if ('fromEventId' in from) {
      const [event] = await this.dataSource.query<{ id: string }[]>(
        'SELECT id::text AS id FROM events WHERE application_id = $1 AND id = $2::bigint',
        [applicationId, from.fromEventId],
      );
      if (!event) throw new AppError(ErrorCode.NotFound, 'Event not found in this application');
      before = BigInt(event.id) - 1n;
    } else {
      const [first] = await this.dataSource.query<{ id: string | null }[]>(
        `SELECT min(id)::text AS id FROM events
         WHERE application_id = $1 AND created_at >= $2::timestamptz`,
        [applicationId, from.fromTime],
      );
      before = first.id === null ? horizon : BigInt(first.id) - 1n;
    }
    return String(before < horizon ? before : horizon);
  }

  /** Committed events of the endpoint's types after its cursor. */
  private async eventsAhead(endpoint: WebhookEndpoint): Promise<number> {
    const horizon = await commitHorizon(this.dataSource, endpoint.applicationId);
    const [row] = await this.dataSource.query<{ count: string }[]>(
      `SELECT count(*)::text AS count FROM events
       WHERE application_id = $1 AND id > $2::bigint AND id <= $3::bigint
         AND (cardinality($4::text[]) = 0 OR event_type = ANY($4::text[]))`,
      [endpoint.applicationId, endpoint.cursor, horizon, endpoint.eventTypes],
    );
    return Number(row.count);
  }

  /** The endpoint's row, locked for the change; not found as `get`. */
  private async locked(
    manager: EntityManager,
    id: number,
    actor: WebhookActor,
  ): Promise<WebhookEndpoint> {
    const row = await manager
      .getRepository(WebhookEndpoint)
      .findOne({ where: scoped(id, actor), lock: { mode: 'pessimistic_write' } });
    if (!row) throw notFound();
    return row;
  }

  /**
   * A new signing secret, returned in clear this once. The current one becomes the previous
   * secret and keeps signing beside it for SECRET_OVERLAP_MS, so receivers can switch without
   * rejecting a delivery; a secret from before an earlier rotation stops signing at once. The
   * previous secret stays sealed as it was (same key, same endpoint). The generation moves on:
   * an attempt in flight, signed before the rotation, records nothing; the event goes again.
   */
  async rotateSecret(id: number, change: WebhookChange = BY_CLI): Promise<CreatedEndpoint> {
    const secret = newWebhookSecret();
    const endpoint = await this.dataSource.transaction(async (manager) => {
      const repo = manager.getRepository(WebhookEndpoint);
      const row = await this.locked(manager, id, change.actor);
      await change.confirm?.(manager);
      const previousSecretUntil = new Date(this.clock.now().getTime() + SECRET_OVERLAP_MS);
      const patch = {
        secret: this.box.seal(secret, row.id),
        previousSecret: row.secret,
        previousSecretUntil,
      };
      await repo.update(row.id, { ...patch, generation: bump });
      await this.record(manager, change, row, 'webhook.rotate_secret', {
        previousSecretUntil: previousSecretUntil.toISOString(),
      });
      return Object.assign(row, patch);
    });
    return { endpoint, secret };
  }

  private record(
    manager: EntityManager,
    { actor }: WebhookChange,
    endpoint: WebhookEndpoint,
    action: string,
    details: AuditDetails,
  ): Promise<void> {
    return recordWebhookAudit(this.audit, manager, actor, endpoint, action, details);
  }

  /** The signing secret of an endpoint in clear (for the delivery engine only). */
  secretOf(sealed: string, endpointId: number): string {
    return this.box.open(sealed, endpointId);
  }
}

/** One audit entry about an endpoint (never a secret), in `manager`'s transaction. */
export function recordWebhookAudit(
  audit: AuditLog,
  manager: EntityManager | undefined,
  actor: WebhookActor,
  endpoint: Pick<WebhookEndpoint, 'id' | 'applicationId'>,
  action: string,
  details: AuditDetails,
): Promise<void> {
  const console = actor.via === 'console';
  return audit.record(
    {
      applicationId: endpoint.applicationId,
      actorUserId: console ? actor.userId : null,
      action,
      target: `webhook:${endpoint.id}`,
      details: { via: actor.via, ...details },
      ip: console ? actor.ip : '',
    },
    manager,
  );
}

function scoped(id: number, actor: WebhookActor): FindOptionsWhere<WebhookEndpoint> {
  return actor.via === 'console' ? { id, applicationId: actor.applicationId } : { id };
}

function sameSet(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((value) => b.includes(value));
}

function checkDescription(description: string): string {
  if (description.length > MAX_DESCRIPTION_LENGTH) {
    throw invalid(`description must be at most ${MAX_DESCRIPTION_LENGTH} characters`);
  }
  return description;
}

export function checkEventTypes(types: string[]): string[] {
  for (const type of types) {
    if (!(EVENT_TYPES as readonly string[]).includes(type)) {
      throw invalid(`unknown event type ${type}: one of ${EVENT_TYPES.join(', ')}`);
    }
  }
  return [...new Set(types)];
}

function invalid(message: string): AppError {
  return new AppError(ErrorCode.InvalidRequest, message);
}

function notFound(): AppError {
  return new AppError(ErrorCode.NotFound, 'Webhook endpoint not found');
}
