import { Injectable, OnModuleInit } from '@nestjs/common';
import { WebhookEndpointsService } from '../../webhooks/webhook-endpoints.service';
import type { ConfirmationRequest } from '../passkeys/confirmations/confirmation.dto';
import { ConfirmationTargetRegistry } from '../passkeys/confirmations/confirmation-target-registry';
import type { ConfirmationTarget } from '../passkeys/confirmations/confirmation-actions';
import { ConsoleAccess } from '../roles/console-access.service';
import type { ConsoleActor } from '../session/console-session';
import { replayDigest, replayFromBody, webhookUrlDigest } from './webhook-digests';

/**
 * The targets of the webhook confirmations (docs/console.md, "The confirmation exchange"),
 * checked when a confirmation starts as the operation would check them: admin; an endpoint of
 * the application; the URL rule for webhook.create and webhook.update_url, one start for
 * webhook.replay (both read into the change digest).
 */
@Injectable()
export class WebhookConfirmationChecks implements OnModuleInit {
  constructor(
    private readonly registry: ConfirmationTargetRegistry,
    private readonly access: ConsoleAccess,
    private readonly endpoints: WebhookEndpointsService,
  ) {}

  onModuleInit(): void {
    const url = (request: ConfirmationRequest): string =>
      webhookUrlDigest(this.endpoints.checkUrl(request.url!));
    this.registry.register('webhook.create', {
      digest: url,
      check: async (actor, target) => {
        await this.access.require(actor, target.applicationId!, 'admin');
      },
    });
    const endpoint = (actor: ConsoleActor, target: ConfirmationTarget): Promise<void> =>
      this.endpoint(actor, target);
    this.registry.register('webhook.update_url', { digest: url, check: endpoint });
    this.registry.register('webhook.rotate_secret', { check: endpoint });
    this.registry.register('webhook.delete', { check: endpoint });
    this.registry.register('webhook.replay', {
      digest: (request) => replayDigest(replayFromBody(request)),
      check: endpoint,
    });
  }

  /** The endpoint must be one of the application's. */
  private async endpoint(actor: ConsoleActor, target: ConfirmationTarget): Promise<void> {
    await this.access.require(actor, target.applicationId!, 'admin');
    await this.endpoints.get(target.webhookId!, {
      via: 'console',
      applicationId: target.applicationId!,
      userId: actor.user.id,
      ip: actor.ip,
    });
  }
}
