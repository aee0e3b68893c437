import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { EventsModule } from '../events/events.module';
import { UsersModule } from '../users/users.module';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookEndpointsModule } from './webhook-endpoints.module';

/**
 * The delivery engine without its scheduler: rounds, resends and test events. The CLI and the
 * console import it for the out-of-band sends; only WebhooksModule runs rounds.
 */
@Module({
  imports: [WebhookEndpointsModule, EventsModule, AuditModule, UsersModule],
  providers: [WebhookDeliveryService],
  exports: [WebhookDeliveryService],
})
export class WebhookDeliveryModule {}
