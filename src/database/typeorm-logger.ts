import { Logger as NestLogger } from '@nestjs/common';
import type { Logger } from 'typeorm';

/**
 * Sends TypeORM's errors and migration notes through Nest's logger (pino in the service,
 * silent in the CLI, whose stdout carries only its result). Query parameters are never logged.
 */
export class TypeOrmLogger implements Logger {
  private readonly logger = new NestLogger('TypeORM');

  /** `onQueryError` hears of every failed statement (the metrics' statement errors). */
  constructor(private readonly onQueryError: (error: unknown) => void = () => undefined) {}

  logQuery(): void {}

  logQueryError(error: string | Error, query: string): void {
    this.onQueryError(error);
    this.logger.error(
      `${typeof error === 'string' ? error : error.message} -- ${query.slice(0, 200)}`,
    );
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn(`slow query (${time} ms): ${query.slice(0, 200)}`);
  }

  logSchemaBuild(): void {}

  logMigration(message: string): void {
    this.logger.log(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn(String(message));
    else this.logger.log(String(message));
  }
}
