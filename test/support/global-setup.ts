import type { Config } from '@jest/types';
import { join } from 'node:path';
import { buildForChildren, CHILD_BUILD_ENV } from './child-build';
import {
  buildEmbeddedTemplates,
  EMBEDDED_TEMPLATES_ENV,
  makeTemplatesRoot,
} from './embedded-templates';
import {
  createWorkerDatabases,
  DATABASE_TEMPLATE_ENV,
  templateName,
  WORKER_DATABASES_ENV,
} from './worker-databases';

/**
 * Once per `npm test`, before any test file: the embedded data directories every test copies
 * (test/support/embedded-templates.ts), the compiled sources for the processes tests start
 * (test/support/child-build.ts; tsc runs in its own process meanwhile) and, with DATABASE_URL,
 * the migrated template and the workers' databases (test/support/worker-databases.ts). What it
 * sets in process.env reaches every test file, in the workers too (they start after this).
 */
export default async function globalSetup(globalConfig: Config.GlobalConfig): Promise<void> {
  const started = Date.now();
  const root = makeTemplatesRoot();
  const build = buildForChildren(join(root, 'build'));
  await buildEmbeddedTemplates(root);
  process.env[EMBEDDED_TEMPLATES_ENV] = root;
  const url = process.env.DATABASE_URL;
  if (url) {
    await createWorkerDatabases(url, globalConfig.maxWorkers);
    process.env[DATABASE_TEMPLATE_ENV] = templateName(url);
    process.env[WORKER_DATABASES_ENV] = String(globalConfig.maxWorkers);
  }
  const outDir = await build;
  if (outDir) process.env[CHILD_BUILD_ENV] = outDir;
  process.stderr.write(
    `\ntest setup: embedded templates${url ? ', PostgreSQL databases' : ''}` +
      `${outDir ? ', compiled sources' : ' (no compiled sources: tsc failed, ts-node instead)'} ` +
      `ready in ${((Date.now() - started) / 1000).toFixed(1)} s; ${globalConfig.maxWorkers} worker(s)\n`,
  );
}
