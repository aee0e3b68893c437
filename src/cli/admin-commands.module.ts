import { Module } from '@nestjs/common';
import { ApplicationsModule } from '../modules/applications/applications.module';
import { KeysModule } from '../modules/keys/keys.module';
import { PasskeyRecoveryModule } from '../modules/passkeys/passkey-recovery';
import { SigningKeysModule } from '../modules/signing-keys/signing-keys.module';
import { UpstreamProvidersModule } from '../modules/upstreams/providers/upstream-providers.module';
import { UsersModule } from '../modules/users/users.module';
import { WebhookDeliveryModule } from '../modules/webhooks/webhook-delivery.module';
import { WebhookEndpointsModule } from '../modules/webhooks/webhook-endpoints.module';
import { AdminCommands } from './admin-commands';
import { StatusService } from './status/status.service';

/** The operations behind the CLI, over the feature services they call and nothing else. */
@Module({
  imports: [
    ApplicationsModule,
    KeysModule,
    UsersModule,
    UpstreamProvidersModule,
    SigningKeysModule,
    PasskeyRecoveryModule,
    WebhookEndpointsModule,
    WebhookDeliveryModule,
  ],
  providers: [AdminCommands, StatusService],
  exports: [AdminCommands],
})
export class AdminCommandsModule {}
