import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { EventsModule } from '../events/events.module';
import { UsersModule } from '../users/users.module';
import { WebhookDeliveryLog } from './webhook-delivery-log';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookEndpointsModule } from './webhook-endpoints.module';
import { WebhookLeases } from './webhook-leases';
import { WebhookPoster } from './webhook-poster';
import { WebhookResendService } from './webhook-resend.service';

/**
 * The delivery engine without its scheduler, and the out-of-band sends (resends, test events).
 * The CLI and the console import it for the latter; only WebhooksModule schedules deliveries.
 */
@Module({
  imports: [WebhookEndpointsModule, EventsModule, AuditModule, UsersModule],
  providers: [
    WebhookDeliveryService,
    WebhookResendService,
    WebhookLeases,
    WebhookPoster,
    WebhookDeliveryLog,
  ],
  exports: [WebhookDeliveryService, WebhookResendService],
})
export class WebhookDeliveryModule {}
