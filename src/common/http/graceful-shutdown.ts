import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';

/** The signals an orchestrator stops a service with (docker stop, Kubernetes: SIGTERM). */
const SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];

/**
 * On SIGTERM/SIGINT: stop listening at once (new connections are refused), let the requests
 * in flight finish with the database and Redis still up, close keep-alive connections as soon
 * as they are idle, then run Nest's shutdown hooks and exit 0. If requests are still running
 * after `timeoutMs`, exit 1 anyway: the orchestrator's own kill would come next.
 */
export function exitGracefullyOnSignals(
  app: INestApplication,
  timeoutMs: number,
  log: (line: string) => void,
): void {
  const server = app.getHttpServer() as Server;
  let stopping = false;
  // A keep-alive connection whose response just finished is idle: close it during shutdown.
  server.on('request', (_req, res) => {
    res.once('finish', () => {
      if (stopping) setImmediate(() => server.closeIdleConnections());
    });
  });
  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => {
      log(`Shutdown: requests still running after ${timeoutMs} ms; exiting anyway`);
      process.exit(1);
    }, timeoutMs);
    const closed = new Promise<void>((done) => server.close(() => done()));
    server.closeIdleConnections();
    log(`${signal}: no longer accepting connections; finishing the requests in flight`);
    await closed;
    await app.close();
    clearTimeout(force);
    log('Shutdown complete');
    process.exit(0);
  };
  for (const signal of SIGNALS) process.once(signal, () => void stop(signal));
}
