import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { DeliveryScheduler } from './delivery-scheduler';
import { WebhookDeliveryService } from './webhook-delivery.service';

/**
 * Keeps an instance's webhook deliveries going every WEBHOOKS_POLL_MS (0 = never): the
 * scheduler every delivery engine shares (delivery-scheduler.ts, docs/webhooks.md "Several
 * instances").
 */
@Injectable()
export class WebhookScheduler extends DeliveryScheduler {
  constructor(@Inject(AppConfig) config: AppConfig, delivery: WebhookDeliveryService) {
    super(config.webhooksPollMs, delivery, 'Webhooks');
  }
}
