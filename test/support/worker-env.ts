import { WORKER_DATABASES_ENV, withDatabase, workerDatabaseName } from './worker-databases';

/**
 * Runs before each test file (jest `setupFiles`): with DATABASE_URL, points the file at its
 * worker's database (test/support/worker-databases.ts), for the apps, child processes and scratch
 * databases it starts. process.env here is the file's own copy; the worker's is unchanged.
 */
const url = process.env.DATABASE_URL;
const worker = Number(process.env.JEST_WORKER_ID ?? '1');
if (url && process.env[WORKER_DATABASES_ENV]) {
  process.env.DATABASE_URL = withDatabase(url, workerDatabaseName(url, worker));
}
