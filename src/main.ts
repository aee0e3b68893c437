// First: loads .env and starts tracing before anything it instruments is required.
import { tracing } from './telemetry/preload';
import 'reflect-metadata';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import { configureApp, NEST_APP_OPTIONS } from './app.setup';
import { ServiceExpressAdapter } from './common/http/express-adapter';
import { exitGracefullyOnSignals } from './common/http/graceful-shutdown';
import { AppConfig, ConfigError, loadConfig } from './config/app-config';
import { DataDirLockedError } from './database/data-dir-lock';
import { ServiceModule } from './service.module';

async function bootstrap(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const app = await NestFactory.create(
    ServiceModule.forRoot(config),
    new ServiceExpressAdapter(),
    NEST_APP_OPTIONS,
  );
  configureApp(app);
  await app.listen(config.port, config.host);
  // Instead of Nest's enableShutdownHooks, which would close everything with requests in flight.
  exitGracefullyOnSignals(app, {
    drainDelayMs: config.shutdownDrainDelayMs,
    timeoutMs: config.shutdownTimeoutMs,
    log: (line) => process.stderr.write(`${line}\n`),
    flush: async () => tracing?.shutdown(),
  });
  // The bound port (PORT=0 picks a free one).
  const { port } = (app.getHttpServer() as Server).address() as AddressInfo;
  process.stderr.write(`Identity service listening on ${config.publicBaseUrl} (port ${port})\n`);
}

bootstrap().catch((error: unknown) => {
  const message =
    error instanceof DataDirLockedError
      ? error.message
      : error instanceof Error
        ? error.stack
        : String(error);
  process.stderr.write(`Failed to start: ${message}\n`);
  process.exit(1);
});
