/**
 * The yardstick of `npm run bench:me` (bench/app-me.bench.ts): a bare Nest 11 + Express app, no
 * middleware, guard, logger or database, with one route at the same path answering a JSON object
 * of the same shape and size as GET /api/v1/app/me. Run as its own process; prints
 * `{"url": …}` on stdout once listening.
 */
import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

@Controller('api/v1/app')
class BareController {
  @Get('me')
  getMe(): object {
    const now = new Date();
    return {
      app: {
        id: 1,
        name: 'bench',
        description: '',
        homeUrl: '',
        logo: '',
        enabled: true,
        isPublic: false,
        createdAt: now.toISOString(),
      },
      apiKey: {
        id: 1,
        name: 'bench',
        keyPrefix: 'svc_live_E1g',
        scopes: [],
        status: 'active',
        lastUsedAt: now.toISOString(),
        createdAt: now.toISOString(),
      },
    };
  }
}

@Module({ controllers: [BareController] })
class BareModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create(BareModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  process.stdout.write(`${JSON.stringify({ url: await app.getUrl() })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
