import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApplicationsModule } from '../applications/applications.module';
import { AuditModule } from '../audit/audit.module';
import { WebhookDelivery } from './webhook-delivery.entity';
import { WebhookEndpoint } from './webhook-endpoint.entity';
import { WebhookEndpointsService } from './webhook-endpoints.service';

/**
 * Webhook endpoints and their delivery log (tables webhook_endpoints, webhook_deliveries):
 * administration only, so the CLI can boot it without the delivery engine.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([WebhookEndpoint, WebhookDelivery]),
    ApplicationsModule,
    AuditModule,
  ],
  providers: [WebhookEndpointsService],
  exports: [WebhookEndpointsService],
})
export class WebhookEndpointsModule {}
