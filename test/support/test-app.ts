import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import supertest from 'supertest';
import { DataSource } from 'typeorm';
import { configureApp, NEST_APP_OPTIONS } from '../../src/app.setup';
import { Clock } from '../../src/common/clock';
import { loadConfig } from '../../src/config/app-config';
import { LimiterStore } from '../../src/modules/rate-limit/limiter-store';
import { ServiceModule } from '../../src/service.module';
import { emptyTablesStatement } from './empty-tables';
import { FixedClock } from './fixed-clock';
import { testEnv } from './test-env';

export interface TestApp {
  app: INestApplication;
  /** supertest bound to the app's HTTP server. */
  http: () => ReturnType<typeof supertest>;
  clock: FixedClock;
  dataSource: DataSource;
  /** Empties every table (identities restart), for a clean state per test. */
  truncate: () => Promise<void>;
  close: () => Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  clock?: FixedClock;
  /** Listen on this port of 127.0.0.1 instead of a random one (the browser test's PUBLIC_BASE_URL). */
  port?: number;
}

/** Boots the whole service (ServiceModule) exactly as main.ts does, over a real HTTP listener. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const config = loadConfig(testEnv(options.env));
  const clock = options.clock ?? new FixedClock(new Date());
  const moduleRef = await Test.createTestingModule({ imports: [ServiceModule.forRoot(config)] })
    .overrideProvider(Clock)
    .useValue(clock)
    .compile();
  const app = moduleRef.createNestApplication(NEST_APP_OPTIONS);
  configureApp(app);
  await app.init();
  await app.listen(options.port ?? 0, '127.0.0.1');
  const dataSource = app.get(DataSource);
  const empty = await emptyTablesStatement(dataSource, [
    ...new Set(dataSource.entityMetadatas.map((meta) => meta.tableName)),
  ]);
  return {
    app,
    http: () => supertest(app.getHttpServer()),
    clock,
    dataSource,
    truncate: async () => {
      await dataSource.query(empty);
      // Application ids restart too: empty their rate-limit buckets as well.
      await app.get(LimiterStore).clear();
    },
    close: () => app.close(),
  };
}
