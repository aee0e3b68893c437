import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import supertest from 'supertest';
import { DataSource } from 'typeorm';
import { configureApp, NEST_APP_OPTIONS } from '../../src/app.setup';
import { ServiceExpressAdapter } from '../../src/common/http/express-adapter';
import { Clock } from '../../src/common/clock';
import { loadConfig } from '../../src/config/app-config';
import { LimiterStore } from '../../src/modules/rate-limit/limiter-store';
import { ServiceModule } from '../../src/service.module';
import { embeddedCopy } from './embedded-templates';
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

/**
 * Boots the whole service (ServiceModule) exactly as main.ts does, over a real HTTP listener.
 * On the embedded default its database is a copy of the run's migrated data directory
 * (test/support/embedded-templates.ts), removed on close.
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const env = testEnv(options.env);
  const copy =
    !env.DATABASE_URL && env.EMBEDDED_DATA_DIR === 'memory://'
      ? embeddedCopy('migrated')
      : undefined;
  if (copy) env.EMBEDDED_DATA_DIR = copy.dataDir;
  try {
    return await boot(env, options, copy?.remove);
  } catch (error) {
    copy?.remove();
    throw error;
  }
}

async function boot(
  env: Record<string, string>,
  options: TestAppOptions,
  removeData: () => void = () => undefined,
): Promise<TestApp> {
  const config = loadConfig(env);
  const clock = options.clock ?? new FixedClock(new Date());
  const moduleRef = await Test.createTestingModule({ imports: [ServiceModule.forRoot(config)] })
    .overrideProvider(Clock)
    .useValue(clock)
    .compile();
  const app = moduleRef.createNestApplication(new ServiceExpressAdapter(), NEST_APP_OPTIONS);
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
    close: async () => {
      await app.close();
      removeData();
    },
  };
}
