import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { positiveIntId } from '../../../common/validation/path-ids';
import type { WebhookEndpoint } from '../../webhooks/webhook-endpoint.entity';
import { WebhookResendService } from '../../webhooks/webhook-resend.service';
import {
  WebhookActor,
  WebhookChange,
  WebhookEndpointsService,
} from '../../webhooks/webhook-endpoints.service';
import type {
  ConfirmationAction,
  ConfirmationTarget,
} from '../passkeys/confirmations/confirmation-actions';
import { PasskeyConfirmations } from '../passkeys/confirmations/passkey-confirmations.service';
import type { ScopedApplication } from '../roles/application-role';
import type { ConsoleActor } from '../session/console-session';
import { replayDigest, replayFromBody, webhookUrlDigest } from './webhook-digests';
import type {
  NewWebhookBody,
  ReplayBody,
  ResendBody,
  WebhookPatchBody,
  WebhookUrlBody,
} from './webhook.dto';
import {
  toDeliveryView,
  toEndpointView,
  type CreatedWebhookView,
  type ReplayedWebhookView,
  type WebhookDeliveryView,
  type WebhookEndpointView,
} from './webhook-views';

/**
 * The Webhooks tab (docs/webhooks.md, docs/console.md): endpoints of the application whose
 * admin role the routes' @ApplicationRole checked, through the services the CLI uses, audited
 * with `via: "console"`, the user and the address. An endpoint of another application answers
 * 404. The changes that need a passkey spend it in their transaction, after their own checks
 * (URL rule, body, endpoint, event), so a refused request leaves the token unspent.
 */
@Injectable()
export class ConsoleWebhooks {
  constructor(
    private readonly endpoints: WebhookEndpointsService,
    private readonly delivery: WebhookResendService,
    private readonly confirmations: PasskeyConfirmations,
    private readonly clock: Clock,
  ) {}

  async list({ applicationId }: ScopedApplication): Promise<WebhookEndpointView[]> {
    return (await this.endpoints.list(applicationId)).map((e) => this.view(e));
  }

  async create(
    actor: ConsoleActor,
    { applicationId }: ScopedApplication,
    body: NewWebhookBody,
    token: string | undefined,
  ): Promise<CreatedWebhookView> {
    const url = this.endpoints.checkUrl(body.url);
    const { endpoint, secret } = await this.endpoints.create(
      { applicationId, url, eventTypes: body.eventTypes ?? [], description: body.description },
      this.change(actor, applicationId, 'webhook.create', token, {
        applicationId,
        changeDigest: webhookUrlDigest(url),
      }),
    );
    return { endpoint: this.view(endpoint), secret };
  }

  async update(
    actor: ConsoleActor,
    { applicationId }: ScopedApplication,
    rawId: string,
    body: WebhookPatchBody,
  ): Promise<WebhookEndpointView> {
    const id = pathId(rawId);
    const endpoint = await this.endpoints.update(id, body, {
      actor: this.actor(actor, applicationId),
    });
    return this.view(endpoint);
  }

  async changeUrl(
    actor: ConsoleActor,
    { applicationId }: ScopedApplication,
    rawId: string,
    body: WebhookUrlBody,
    token: string | undefined,
  ): Promise<WebhookEndpointView> {
    const id = pathId(rawId);
    const url = this.endpoints.checkUrl(body.url);
    const endpoint = await this.endpoints.changeUrl(
      id,
      url,
      this.change(actor, applicationId, 'webhook.update_url', token, {
        applicationId,
        webhookId: id,
        changeDigest: webhookUrlDigest(url),
      }),
    );
    return this.view(endpoint);
  }

  async rotateSecret(
    actor: ConsoleActor,
    { applicationId }: ScopedApplication,
    rawId: string,
    token: string | undefined,
  ): Promise<CreatedWebhookView> {
    const id = pathId(rawId);
    const { endpoint, secret } = await this.endpoints.rotateSecret(
      id,
      this.change(actor, applicationId, 'webhook.rotate_secret', token, {
        applicationId,
        webhookId: id,
      }),
    );
    return { endpoint: this.view(endpoint), secret };
  }

  async remove(
    actor: ConsoleActor,
    { applicationId }: ScopedApplication,
    rawId: string,
    token: string | undefined,
  ): Promise<void> {
    const id = pathId(rawId);
    await this.endpoints.remove(
      id,
      this.change(actor, applicationId, 'webhook.delete', token, { applicationId, webhookId: id }),
    );
  }

  async deliveries(
    actor: ConsoleActor,
    { applicationId }: ScopedApplication,
    rawId: string,
  ): Promise<WebhookDeliveryView[]> {
    const attempts = await this.endpoints.deliveries(
      pathId(rawId),
      this.actor(actor, applicationId),
    );
    return attempts.map(toDeliveryView);
  }

  async sendTest(
    actor: ConsoleActor,
    { applicationId }: ScopedApplication,
    rawId: string,
  ): Promise<WebhookDeliveryView> {
    const id = pathId(rawId);
    return toDeliveryView(await this.delivery.sendTest(id, this.actor(actor, applicationId)));
  }

  async resend(
    actor: ConsoleActor,
    { applicationId }: ScopedApplication,
    rawId: string,
    body: ResendBody,
  ): Promise<WebhookDeliveryView> {
    const id = pathId(rawId);
    const attempt = await this.delivery.resend(
      id,
      String(body.eventId),
      this.actor(actor, applicationId),
    );
    return toDeliveryView(attempt);
  }

  async replay(
    actor: ConsoleActor,
    { applicationId }: ScopedApplication,
    rawId: string,
    body: ReplayBody,
    token: string | undefined,
  ): Promise<ReplayedWebhookView> {
    const id = pathId(rawId);
    const from = replayFromBody(body);
    const { endpoint, events } = await this.endpoints.replay(
      id,
      from,
      this.change(actor, applicationId, 'webhook.replay', token, {
        applicationId,
        webhookId: id,
        changeDigest: replayDigest(from),
      }),
    );
    return { endpoint: this.view(endpoint), events };
  }

  private view(endpoint: WebhookEndpoint): WebhookEndpointView {
    return toEndpointView(endpoint, this.clock.now());
  }

  private actor(actor: ConsoleActor, applicationId: number): WebhookActor {
    return { via: 'console', applicationId, userId: actor.user.id, ip: actor.ip };
  }

  /** A change that spends the confirmation `token` for `action` on `target` in its transaction. */
  private change(
    actor: ConsoleActor,
    applicationId: number,
    action: ConfirmationAction,
    token: string | undefined,
    target: ConfirmationTarget,
  ): WebhookChange {
    return {
      actor: this.actor(actor, applicationId),
      confirm: (manager: EntityManager) =>
        this.confirmations.consume(actor.user.id, action, target, token, manager),
    };
  }
}

/** A path's endpoint id; one that cannot name a row is 404 like an unknown one. */
function pathId(raw: string): number {
  const id = positiveIntId(raw);
  if (id !== null) return id;
  throw new AppError(ErrorCode.NotFound, 'Webhook endpoint not found');
}
