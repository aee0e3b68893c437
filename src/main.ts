import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { configureApp, NEST_APP_OPTIONS } from './app.setup';
import { AppConfig, ConfigError, loadConfig } from './config/app-config';
import { DataDirLockedError } from './database/data-dir-lock';

async function bootstrap(): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
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
  const app = await NestFactory.create(AppModule.forRoot(config), NEST_APP_OPTIONS);
  configureApp(app);
  await app.listen(config.port, config.host);
  process.stderr.write(
    `Identity service listening on ${config.publicBaseUrl} (port ${config.port})\n`,
  );
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
