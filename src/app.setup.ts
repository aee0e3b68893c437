import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { applicationApiJsonBody } from './common/http/json-body';
import { AppConfig } from './config/app-config';

/** HTTP-level settings shared by main.ts and the e2e tests, so tests run the real stack. */
export function configureApp(app: INestApplication): void {
  const express = app as NestExpressApplication;
  const config = app.get(AppConfig);
  express.useLogger(app.get(Logger));
  express.disable('x-powered-by');
  express.set('trust proxy', config.trustProxyHops);
  express.use(helmet());
  // Malformed JSON on the application API is 400 invalid_body (spec section 7).
  express.use('/api/v1/app', applicationApiJsonBody);
  app.enableShutdownHooks();
  // OpenAPI description of the HTTP API, browsable at /api/docs (JSON at /api/docs-json).
  const openApi = new DocumentBuilder()
    .setTitle('Identity service')
    .setDescription('Application-level user management API and OAuth 2.0 endpoints')
    .addBearerAuth()
    .build();
  SwaggerModule.setup('api/docs', app, () => SwaggerModule.createDocument(app, openApi));
}
