import type { INestApplication } from '@nestjs/common';
import type { Server, ServerResponse } from 'node:http';
import { ShutdownState } from './shutdown-state';

/** The signals an orchestrator stops a service with (docker stop, Kubernetes: SIGTERM). */
const SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];

export interface ShutdownOptions {
  /** After SIGTERM, how long the instance keeps serving (and accepting) while not ready. */
  drainDelayMs: number;
  /** Once the listener is closed, time left to the requests in flight before exit 1. */
  timeoutMs: number;
  log: (line: string) => void;
  /** Runs after Nest's shutdown hooks, before the exit: the buffered spans leave (tracing). */
  flush?: () => Promise<void>;
}

/**
 * A rolling deploy must not lose a request (docs/adr/0004-database-outage-and-shutdown.md):
 *
 * 1. On the signal, GET /health/ready answers 503 and every response not yet started says
 *    `Connection: close`, so keep-alive clients open their next connection elsewhere.
 * 2. On SIGTERM the listener stays open for `drainDelayMs`, serving whatever still arrives,
 *    until the load balancer has seen the 503 and stopped sending. Closing it at once would
 *    reset the connections the kernel had already queued for it. SIGINT (Ctrl-C at a
 *    terminal, no balancer in front) skips the delay, as does a second signal.
 * 3. Then the listener closes (Node also closes the idle keep-alive connections: only those
 *    idle since before the signal are left by then, and the balancer has stopped using them),
 *    the requests in flight finish with the database and Redis still up, Nest's shutdown hooks
 *    run, the spans still buffered are exported and the process exits 0; after `timeoutMs` it exits 1 whatever is still running.
 */
export function exitGracefullyOnSignals(app: INestApplication, options: ShutdownOptions): void {
  const server = app.getHttpServer() as Server;
  const state = app.get(ShutdownState);
  // Responses whose headers are not sent yet: they get `Connection: close` on the signal.
  const pending = new Set<ServerResponse>();
  server.on('request', (_req, res: ServerResponse) => {
    if (state.shuttingDown) return closeAfter(res);
    pending.add(res);
    res.once('close', () => pending.delete(res));
  });

  let cutDrainShort: (() => void) | undefined;
  const stop = async (signal: NodeJS.Signals): Promise<void> => {
    if (state.shuttingDown) return cutDrainShort?.();
    state.begin();
    for (const res of pending) closeAfter(res);
    pending.clear();
    const delay = signal === 'SIGTERM' ? options.drainDelayMs : 0;
    options.log(
      `${signal}: shutting down; not ready, serving for ${delay} ms more before closing the listener`,
    );
    await new Promise<void>((done) => {
      const timer = setTimeout(done, delay);
      cutDrainShort = () => {
        clearTimeout(timer);
        done();
      };
    });
    const force = setTimeout(() => {
      options.log(`Shutdown: requests still running after ${options.timeoutMs} ms; exiting anyway`);
      process.exit(1);
    }, options.timeoutMs);
    const closed = new Promise<void>((done) => server.close(() => done()));
    options.log(`${signal}: no longer accepting connections; finishing the requests in flight`);
    await closed;
    await app.close();
    await options.flush?.();
    clearTimeout(force);
    options.log('Shutdown complete');
    process.exit(0);
  };
  // `on`, not `once`: a second signal cuts the drain delay short instead of killing the process.
  for (const signal of SIGNALS) process.on(signal, () => void stop(signal));
}

/** The connection closes after this response; the client's next request opens a new one. */
function closeAfter(res: ServerResponse): void {
  if (!res.headersSent) res.setHeader('Connection', 'close');
}
