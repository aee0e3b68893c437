import { connect, createServer, type Server, type Socket } from 'node:net';

/** Where the proxy forwards to: a TCP address or a unix socket path. */
export type Upstream = { host: string; port: number } | { path: string };

/**
 * A TCP proxy in front of the database that a test controls: `cut()` destroys every open
 * connection and refuses new ones (the listener closes, so connects get ECONNREFUSED) until
 * `restore()` listens again on the same port.
 */
export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly upstream: Upstream) {}

  async start(): Promise<void> {
    await this.listen(0);
  }

  /** Drops every connection, both sides, and stops accepting new ones. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((done) => server.close(() => done()));
  }

  /** Accepts connections again on the same port. */
  async restore(): Promise<void> {
    if (!this.server) await this.listen(this.port);
  }

  async stop(): Promise<void> {
    await this.cut();
  }

  private listen(port: number): Promise<void> {
    const server = createServer((client) => this.forward(client));
    this.server = server;
    return new Promise((done, fail) => {
      server.once('error', fail);
      server.listen(port, '127.0.0.1', () => {
        this.port = (server.address() as { port: number }).port;
        done();
      });
    });
  }

  private forward(client: Socket): void {
    const upstream = connect(this.upstream);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      // Either side failing or closing ends the pair, as a real network cut would.
      socket.on('error', () => undefined);
      socket.on('close', () => {
        this.sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
