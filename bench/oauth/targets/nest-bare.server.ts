/**
 * The bare route for GET /api/v1/app/me: a Nest 11 + Express application with one controller
 * returning a JSON object shaped and sized like the identity service's /me answer, no guard, no
 * database, no rate limit. Same process model as the others (forked by main.ts, BENCH_NODE) and
 * the same access-log options as the service, unless BENCH_LOG_LEVEL=silent.
 *
 * BENCH_BARE=stock (the default): Nest as its documentation sets it up, with Nest's own Express
 * server and nestjs-pino's middleware. BENCH_BARE=service: the service's server and log
 * (ServiceExpressAdapter, serviceLogs), the floor of what the service's framework costs.
 */
import 'reflect-metadata';
import { Controller, Get, Module, type NestApplicationOptions } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Logger, LoggerModule } from 'nestjs-pino';
import { accessLogOptions, serviceLogs } from '../../../src/common/http/access-log';
import { ServiceExpressAdapter } from '../../../src/common/http/express-adapter';

const ME = {
  app: {
    id: 1,
    name: 'Bench',
    description: '',
    homeUrl: '',
    logo: '',
    enabled: true,
    isPublic: false,
    createdAt: '2026-11-24T02:00:00.000Z',
  },
  apiKey: {
    id: 1,
    name: 'bench',
    keyPrefix: 'sk_live_AbCd',
    scopes: [],
    status: 'active',
    lastUsedAt: '2026-11-24T02:00:01.000Z',
    createdAt: '2026-11-24T02:00:00.000Z',
  },
};

@Controller('api/v1/app')
class MeController {
  @Get('me')
  getMe(): typeof ME {
    return ME;
  }
}

const level = process.env.BENCH_LOG_LEVEL ?? 'info';
const asService = process.env.BENCH_BARE === 'service';
const logging =
  level === 'silent' || asService
    ? []
    : [LoggerModule.forRoot({ pinoHttp: accessLogOptions(level) })];

@Module({ imports: logging, controllers: [MeController] })
class BareModule {}

async function main(): Promise<void> {
  const options: NestApplicationOptions = {
    bufferLogs: level !== 'silent',
    logger: level === 'silent' ? false : undefined,
  };
  const app = asService
    ? await NestFactory.create(BareModule, new ServiceExpressAdapter(), options)
    : await NestFactory.create(BareModule, options);
  if (asService && level !== 'silent') {
    const logs = serviceLogs(level);
    app.use(logs.accessLog);
    app.useLogger(logs.nestLogger);
  } else if (level !== 'silent') {
    app.useLogger(app.get(Logger));
  }
  await app.listen(Number(process.env.BENCH_PORT), '127.0.0.1');
  // An orphan (the harness died without stopping it) ends with its IPC channel.
  process.on('disconnect', () => process.exit(0));
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
  process.send!({ ready: { url: `http://127.0.0.1:${process.env.BENCH_PORT}` } });
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bare Nest target: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
