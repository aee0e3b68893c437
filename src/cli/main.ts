#!/usr/bin/env node
import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig } from '../config/app-config';
import { lockHolder } from '../database/data-dir-lock';
import { AdminCommands } from './admin-commands';
import { sendToAdminSocket } from './admin-socket';
import { CliModule } from './cli.module';
import { CliResult, inlineJwksFile, printed, runCommand, wantsJson } from './run-command';
import { statusReport } from './status/status-report';
import { statusWithoutDatabase } from './status/status.service';

async function execute(argv: string[]): Promise<CliResult> {
  // `migrate` reports what it ran and `status` what is pending, so the boot must not run them.
  const env = ['migrate', 'status'].includes(argv[0])
    ? { ...process.env, MIGRATIONS_RUN: 'false' }
    : process.env;
  const config = loadConfig(env);
  const dataDir = config.embeddedDataDir;
  if (
    config.usesEmbeddedDatabase &&
    !dataDir.startsWith('memory://') &&
    lockHolder(dataDir) !== undefined
  ) {
    // The service owns the embedded database: let it run the command.
    return sendToAdminSocket(dataDir, inlineJwksFile(argv));
  }
  let app: Awaited<ReturnType<typeof NestFactory.createApplicationContext>> | undefined;
  const boot = async (): Promise<AdminCommands> => {
    // abortOnError: a failed boot (database unreachable) is reported, not a silent exit 1.
    app = await NestFactory.createApplicationContext(CliModule.forRoot(config), {
      logger: false,
      abortOnError: false,
    });
    return app.get(AdminCommands);
  };
  try {
    if (argv[0] === 'status') {
      let commands: AdminCommands;
      try {
        commands = await boot();
      } catch (error) {
        // A database that cannot be opened is what `status` reports, not a failure of its own.
        return printed(statusReport(await statusWithoutDatabase(config, error)), wantsJson(argv));
      }
      return await runCommand(argv, () => Promise.resolve(commands));
    }
    return await runCommand(argv, boot);
  } finally {
    await app?.close();
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (existsSync('.env')) process.loadEnvFile('.env');
  let result: CliResult;
  try {
    result = await execute(argv);
  } catch (error) {
    const message = error instanceof ConfigError ? error.message : `${(error as Error).message}`;
    result = wantsJson(argv)
      ? { exitCode: 1, stdout: JSON.stringify({ error: 'cli_failed', message }) + '\n', stderr: '' }
      : { exitCode: 1, stdout: '', stderr: `error: ${message}\n` };
  }
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  process.exitCode = result.exitCode;
}

void main();
