import { createServer as createHttpServer, Server as HttpServer, ServerResponse } from 'node:http';
import { createServer as createTcpServer, Server as TcpServer, Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** How a hanging receiver holds a delivery. */
export type HangingKind = 'never-answers' | 'endless-200-body' | 'accept-and-hang' | 'slow-503';
export const HANGING_KINDS: HangingKind[] = [
  'never-answers',
  'endless-200-body',
  'accept-and-hang',
  'slow-503',
];

/**
 * A receiver on 127.0.0.1 that holds every delivery open until `release()`: it never answers,
 * answers 200 and then sends its body a byte at a time without end, accepts the TCP connection
 * and never reads or answers, or answers 503 only when released. It counts the connections it
 * has accepted and those still open.
 */
export class HangingReceiver {
  connections = 0;
  private readonly open = new Set<Socket>();
  private server?: HttpServer | TcpServer;
  private arrivedOnce!: () => void;
  /** Settles when the first connection has been accepted. */
  readonly arrived = new Promise<void>((done) => (this.arrivedOnce = done));
  private releasing!: () => void;
  private readonly released = new Promise<void>((done) => (this.releasing = done));

  constructor(readonly kind: HangingKind) {}

  async start(): Promise<string> {
    const server =
      this.kind === 'accept-and-hang'
        ? createTcpServer(() => undefined)
        : createHttpServer((req, res) => req.resume().on('end', () => this.answer(res)));
    server.on('connection', (socket: Socket) => {
      this.connections += 1;
      this.open.add(socket);
      socket.on('close', () => this.open.delete(socket));
      this.arrivedOnce();
    });
    this.server = server;
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  }

  /** Connections accepted and not closed by either side. */
  get openConnections(): number {
    return this.open.size;
  }

  /** Ends every held delivery: the 503 is sent, every other connection is cut. */
  release(): void {
    this.releasing();
    if (this.kind !== 'slow-503') for (const socket of this.open) socket.destroy();
  }

  async stop(): Promise<void> {
    this.release();
    for (const socket of this.open) socket.destroy();
    await new Promise((done) => this.server?.close(done) ?? done(undefined));
  }

  private answer(res: ServerResponse): void {
    if (this.kind === 'endless-200-body') {
      res.writeHead(200);
      const drip = setInterval(() => res.write('.'), 100);
      res.on('close', () => clearInterval(drip));
    } else if (this.kind === 'slow-503') {
      void this.released.then(() => res.writeHead(503).end('busy'));
    }
  }
}
