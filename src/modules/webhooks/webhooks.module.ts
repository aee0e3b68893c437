import { Module } from '@nestjs/common';
import { WebhookDeliveryModule } from './webhook-delivery.module';
import { WebhookScheduler } from './webhook.scheduler';

/** Webhooks (docs/webhooks.md): the delivery engine and its scheduler, in every instance. */
@Module({
  imports: [WebhookDeliveryModule],
  providers: [WebhookScheduler],
})
export class WebhooksModule {}
