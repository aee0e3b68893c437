import { rmSync } from 'node:fs';
import { EMBEDDED_TEMPLATES_ENV } from './embedded-templates';
import { dropWorkerDatabases, WORKER_DATABASES_ENV } from './worker-databases';

/** Removes what test/support/global-setup.ts made. */
export default async function globalTeardown(): Promise<void> {
  const root = process.env[EMBEDDED_TEMPLATES_ENV];
  if (root) rmSync(root, { recursive: true, force: true });
  const url = process.env.DATABASE_URL;
  const workers = Number(process.env[WORKER_DATABASES_ENV]);
  if (url && workers) await dropWorkerDatabases(url, workers);
}
