import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import { CommonModule } from './common/common.module';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { AppApiModule } from './modules/app-api/app-api.module';
import { ApplicationsModule } from './modules/applications/applications.module';
import { AuditModule } from './modules/audit/audit.module';
import { ConsoleModule } from './modules/console/console.module';
import { ConsoleAppsModule } from './modules/console-apps/console-apps.module';
import { ConsoleWebModule } from './modules/console-web/console-web.module';
import { EventsModule } from './modules/events/events.module';
import { HealthModule } from './modules/health/health.module';
import { ApiKeyGuardModule } from './modules/keys/api-key-guard.module';
import { KeysModule } from './modules/keys/keys.module';
import { MaintenanceModule } from './modules/maintenance/maintenance.module';
import { OAuthModule } from './modules/oauth/oauth.module';
import { UpstreamFlowModule } from './modules/upstream-flow/upstream-flow.module';
import { PasskeysModule } from './modules/passkeys/passkeys.module';
import { SigningKeysModule } from './modules/signing-keys/signing-keys.module';
import { StatsModule } from './modules/stats/stats.module';
import { UsersModule } from './modules/users/users.module';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Secrets never reach the logs: credentials, cookies and redirect targets carrying codes. */
const REDACTED = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'res.headers.location',
];

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        CommonModule.forRoot(),
        LoggerModule.forRoot({
          pinoHttp: {
            level: config.logLevel,
            redact: { paths: REDACTED, censor: '[redacted]' },
            // Honour a well-formed X-Request-Id from the proxy, otherwise make one.
            genReqId: (req: IncomingMessage, res: ServerResponse) => {
              const given = req.headers['x-request-id'];
              const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
              res.setHeader('X-Request-Id', id);
              return id;
            },
            // Query strings of OAuth redirects may carry state; log the path only.
            serializers: {
              req: (req: { id: unknown; method: string; url: string }) => ({
                id: req.id,
                method: req.method,
                path: req.url.split('?')[0],
              }),
            },
          },
        }),
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
        ConsoleAppsModule,
        PasskeysModule,
        ConsoleWebModule,
        UpstreamFlowModule,
        SigningKeysModule,
      ],
      providers: [{ provide: APP_FILTER, useClass: AllExceptionsFilter }],
    };
  }
}
