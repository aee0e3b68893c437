import { Module } from '@nestjs/common';
import { WebhookDeliveryModule } from '../../webhooks/webhook-delivery.module';
import { WebhookEndpointsModule } from '../../webhooks/webhook-endpoints.module';
import { ConsolePasskeysModule } from '../passkeys/console-passkeys.module';
import { ConsoleRolesModule } from '../roles/console-roles.module';
import { ConsoleSessionModule } from '../session/console-session.module';
import { WebhookConfirmationChecks } from './confirmation-checks';
import { ConsoleWebhooksController } from './console-webhooks.controller';
import { ConsoleWebhooks } from './console-webhooks.service';

/** The Webhooks tab: an application's endpoints, their delivery log, replay, resend, test. */
@Module({
  imports: [
    ConsoleSessionModule,
    ConsoleRolesModule,
    ConsolePasskeysModule,
    WebhookEndpointsModule,
    WebhookDeliveryModule,
  ],
  controllers: [ConsoleWebhooksController],
  providers: [ConsoleWebhooks, WebhookConfirmationChecks /* webhook.* */],
})
export class ConsoleWebhooksModule {}
