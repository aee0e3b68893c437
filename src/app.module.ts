import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { CommonModule } from './common/common.module';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter';
import { RequestValidationPipe } from './common/validation/request-validation';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { InteractionModule } from './modules/interaction/interaction.module';
import { AppApiModule } from './modules/app-api/app-api.module';
import { ApplicationsModule } from './modules/applications/applications.module';
import { AuditModule } from './modules/audit/audit.module';
import { ConsoleModule } from './modules/console/console.module';
import { EventsModule } from './modules/events/events.module';
import { HealthModule } from './modules/health/health.module';
import { ApiKeyGuardModule } from './modules/keys/api-key-guard.module';
import { KeysModule } from './modules/keys/keys.module';
import { MaintenanceModule } from './modules/maintenance/maintenance.module';
import { MetricsModule } from './modules/metrics/metrics.module';
import { OAuthModule } from './modules/oauth/oauth.module';
import { SigningKeysModule } from './modules/signing-keys/signing-keys.module';
import { StatsModule } from './modules/stats/stats.module';
import { UsersModule } from './modules/users/users.module';
import { WebhooksModule } from './modules/webhooks/webhooks.module';
import { BackchannelLogoutModule } from './modules/oauth/backchannel-logout/backchannel-logout.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        CommonModule.forRoot(),
        MetricsModule.forRoot(config),
        DatabaseModule,
        ApplicationsModule,
        KeysModule,
        ApiKeyGuardModule,
        UsersModule,
        EventsModule,
        StatsModule,
        AppApiModule,
        OAuthModule,
        MaintenanceModule,
        HealthModule,
        AuditModule,
        ConsoleModule,
        InteractionModule,
        SigningKeysModule,
        WebhooksModule,
        BackchannelLogoutModule,
      ],
      providers: [
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        // Bodies and query strings typed with a DTO class (docs/errors.md, "Request bodies").
        { provide: APP_PIPE, useClass: RequestValidationPipe },
      ],
    };
  }
}
