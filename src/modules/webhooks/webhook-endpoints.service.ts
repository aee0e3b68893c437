import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { AppConfig } from '../../config/app-config';
import { ApplicationsService } from '../applications/applications.service';
import type { AuditDetails } from '../audit/audit-log.entity';
import { AuditLog } from '../audit/audit-log.service';
import { commitHorizon } from '../events/commit-horizon';
import { EVENT_TYPES } from '../events/event-types';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { newWebhookSecret, WebhookSecretBox } from './webhook-secret';
import { checkWebhookUrl } from './webhook-url';

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

/** A new endpoint and its signing secret in clear, which is never shown again. */
export interface CreatedEndpoint {
  endpoint: WebhookEndpoint;
  secret: string;
}

/**
 * Endpoint administration (the admin CLI's `webhook` commands; owner of webhook_endpoints).
 * Each change is audited with `via: "cli"` and no actor, in the transaction of the change.
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
  async create(input: NewEndpoint): Promise<CreatedEndpoint> {
    const url = checkWebhookUrl(input.url, this.config.webhooksAllowInsecure);
    const eventTypes = checkEventTypes(input.eventTypes);
    const description = input.description ?? '';
    if (description.length > MAX_DESCRIPTION_LENGTH) {
      throw invalid(`description must be at most ${MAX_DESCRIPTION_LENGTH} characters`);
    }
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
      await this.record(manager, row, 'webhook.create', { url, eventTypes });
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

  async remove(id: number): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const repo = manager.getRepository(WebhookEndpoint);
      const row = await repo.findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
      if (!row) throw notFound();
      await repo.delete(id);
      await this.record(manager, row, 'webhook.delete', { url: row.url });
    });
  }

  /**
   * Enabling clears the failure state, so delivery resumes at once from the event that was
   * held back; disabling keeps the cursor, so re-enabling later sends what came meanwhile.
   */
  async setEnabled(id: number, enabled: boolean): Promise<WebhookEndpoint> {
    const patch = enabled
      ? { enabled, disabledReason: null, failingSince: null, nextAttemptAt: null, attempts: 0 }
      : { enabled, disabledReason: null };
    return this.dataSource.transaction(async (manager) => {
      const repo = manager.getRepository(WebhookEndpoint);
      const result = await repo.update(id, patch);
      if (!result.affected) throw notFound();
      const row = await repo.findOneByOrFail({ id });
      await this.record(manager, row, enabled ? 'webhook.enable' : 'webhook.disable', {});
      return row;
    });
  }

  /**
   * A new signing secret, returned in clear this once. The current one becomes the previous
   * secret and keeps signing beside it for SECRET_OVERLAP_MS, so receivers can switch without
   * rejecting a delivery; a secret from before an earlier rotation stops signing at once. The
   * previous secret stays sealed as it was (same key, same endpoint).
   */
  async rotateSecret(id: number): Promise<CreatedEndpoint> {
    const secret = newWebhookSecret();
    const endpoint = await this.dataSource.transaction(async (manager) => {
      const repo = manager.getRepository(WebhookEndpoint);
      const row = await repo.findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
      if (!row) throw notFound();
      const previousSecretUntil = new Date(this.clock.now().getTime() + SECRET_OVERLAP_MS);
      const patch = {
        secret: this.box.seal(secret, row.id),
        previousSecret: row.secret,
        previousSecretUntil,
      };
      await repo.update(row.id, patch);
      await this.record(manager, row, 'webhook.rotate_secret', {
        previousSecretUntil: previousSecretUntil.toISOString(),
      });
      return Object.assign(row, patch);
    });
    return { endpoint, secret };
  }

  private record(
    manager: EntityManager,
    endpoint: WebhookEndpoint,
    action: string,
    details: AuditDetails,
  ): Promise<void> {
    return this.audit.record(
      {
        applicationId: endpoint.applicationId,
        actorUserId: null,
        action,
        target: `webhook:${endpoint.id}`,
        details: { via: 'cli', ...details },
        ip: '',
      },
      manager,
    );
  }

  /** The signing secret of an endpoint in clear (for the delivery engine only). */
  secretOf(sealed: string, endpointId: number): string {
    return this.box.open(sealed, endpointId);
  }
}

function checkEventTypes(types: string[]): string[] {
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
