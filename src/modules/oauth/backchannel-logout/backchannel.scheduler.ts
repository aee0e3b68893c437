import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config';
import { DeliveryScheduler } from '../../webhooks/delivery-scheduler';
import { BackchannelDeliveryService } from './backchannel-delivery.service';

/**
 * Keeps an instance's back-channel logouts going every WEBHOOKS_POLL_MS (0 = never), with the
 * scheduler the webhook engine uses (delivery-scheduler.ts).
 */
@Injectable()
export class BackchannelScheduler extends DeliveryScheduler {
  constructor(@Inject(AppConfig) config: AppConfig, delivery: BackchannelDeliveryService) {
    super(config.webhooksPollMs, delivery, 'BackchannelLogout');
  }
}
