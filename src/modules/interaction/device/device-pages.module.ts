import { Module } from '@nestjs/common';
import { OAuthModule } from '../../oauth/oauth.module';
import { PageExceptionFilter } from '../../pages/page-exception.filter';
import { LimiterStoreModule } from '../../rate-limit/limiter-store.module';
import { PendingInteractionsModule } from '../pending-interactions.module';
import { DeviceCodeThrottle } from './device-code-throttle';
import { DevicePagesController } from './device-pages.controller';
import { DevicePagesService } from './device-pages.service';

/**
 * The device page of the device authorization grant (RFC 8628; docs/oauth.md): code entry,
 * sign-in through the pending authorization request's pages, confirmation.
 */
@Module({
  imports: [
    PendingInteractionsModule, // the pending request, its login page and continuation
    OAuthModule, // DeviceApprovals and AuthorizeService
    LimiterStoreModule, // the counters of unusable codes
  ],
  controllers: [DevicePagesController],
  providers: [DevicePagesService, DeviceCodeThrottle, PageExceptionFilter],
})
export class DevicePagesModule {}
