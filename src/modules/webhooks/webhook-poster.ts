import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { AppConfig } from '../../config/app-config';
import type { EventView } from '../events/event-view';
import { AppUsersService } from '../users/app-users.service';
import type { UserView } from '../users/user-view';
import type { AddressPolicy } from './webhook-address';
import { WebhookEndpointsService } from './webhook-endpoints.service';
import { SendOutcome, sendWebhook } from './webhook-sender';

/** The secrets of an endpoint, sealed, as a claim or a row gives them. */
export interface SealedSecrets {
  id: number;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
}

/**
 * What every send shares (rounds, resends, test events): the address policy of the
 * configuration, the secrets that sign now, and the users that delivery bodies carry.
 */
@Injectable()
export class WebhookPoster {
  private readonly addressPolicy: AddressPolicy;

  constructor(
    @Inject(AppConfig) config: AppConfig,
    private readonly clock: Clock,
    private readonly endpoints: WebhookEndpointsService,
    private readonly users: AppUsersService,
  ) {
    this.addressPolicy = {
      allowedPrivateHosts: config.webhooksAllowedPrivateHosts,
      allowLoopback: config.webhooksAllowInsecure,
    };
  }

  /** One signed POST to the endpoint's `url` (webhook-sender.ts). */
  post(
    url: string,
    endpoint: SealedSecrets,
    messageId: string,
    body: string,
  ): Promise<SendOutcome> {
    return sendWebhook(
      { url, secrets: this.secretsOf(endpoint), messageId, body },
      this.addressPolicy,
    );
  }

  /** The users the events name, as the application sees them, in one query. */
  usersOf(applicationId: number, events: EventView[]): Promise<Map<string, UserView>> {
    const ids = events.flatMap((event) => (event.userId === null ? [] : [event.userId]));
    return this.users.viewsOf(applicationId, ids);
  }

  /** The current secret, and the one before a rotation while its overlap lasts. */
  private secretsOf(endpoint: SealedSecrets): string[] {
    const secrets = [this.endpoints.secretOf(endpoint.secret, endpoint.id)];
    const until = endpoint.previousSecretUntil;
    if (endpoint.previousSecret !== null && until !== null && until > this.clock.now()) {
      secrets.push(this.endpoints.secretOf(endpoint.previousSecret, endpoint.id));
    }
    return secrets;
  }
}
