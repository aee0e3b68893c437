import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { EventsModule } from '../events/events.module';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookEndpointsModule } from './webhook-endpoints.module';
import { WebhookScheduler } from './webhook.scheduler';

/** Webhooks (docs/webhooks.md): the delivery engine and its scheduler, in every instance. */
@Module({
  imports: [WebhookEndpointsModule, EventsModule, AuditModule],
  providers: [WebhookDeliveryService, WebhookScheduler],
})
export class WebhooksModule {}
