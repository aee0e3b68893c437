import { Module } from '@nestjs/common';
import { SigningKeysModule } from '../../signing-keys/signing-keys.module';
import { BackchannelDeliveryService } from './backchannel-delivery.service';
import { BackchannelLeases } from './backchannel-leases';
import { BackchannelScheduler } from './backchannel.scheduler';

/**
 * OpenID Connect Back-Channel Logout 1.0 (docs/oidc.md, "Back-channel logout"): the engine that
 * sends the logouts SessionService queues, and its scheduler, in every instance.
 */
@Module({
  imports: [SigningKeysModule], // signs each logout token with the client's id_token alg
  providers: [BackchannelLeases, BackchannelDeliveryService, BackchannelScheduler],
  exports: [BackchannelDeliveryService],
})
export class BackchannelLogoutModule {}
