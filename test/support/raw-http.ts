import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * One HTTP/1.1 keep-alive connection written by hand, so a test controls exactly when each
 * byte is sent (a request held half-sent stays in flight for as long as the test wants).
 */
export class RawConnection {
  private buffer = '';
  private readonly listeners: (() => void)[] = [];
  readonly closed: Promise<void>;

  private constructor(private readonly socket: Socket) {
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      for (const listener of [...this.listeners]) listener();
    });
    this.closed = new Promise((done) => socket.once('close', () => done()));
    socket.on('error', () => undefined);
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((done, fail) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => done(new RawConnection(socket)));
      socket.once('error', fail);
    });
  }

  /**
   * Sends the request line and headers with `Expect: 100-continue` and resolves once the
   * server answered "100 Continue": the request is then being handled, waiting for its body.
   */
  async startRequest(method: string, path: string, headers: Record<string, string>, body: string) {
    const lines = Object.entries({
      Host: '127.0.0.1',
      ...headers,
      'Content-Length': String(Buffer.byteLength(body)),
      Expect: '100-continue',
    }).map(([name, value]) => `${name}: ${value}`);
    this.socket.write(`${method} ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
    await this.until(() => this.buffer.startsWith('HTTP/1.1 100 Continue\r\n\r\n'));
    this.buffer = this.buffer.slice('HTTP/1.1 100 Continue\r\n\r\n'.length);
    return { finish: (): Promise<RawResponse> => this.send(body) };
  }

  /** A whole request; resolves with its response (the connection stays open). */
  request(method: string, path: string): Promise<RawResponse> {
    return this.send(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  }

  private async send(bytes: string): Promise<RawResponse> {
    this.socket.write(bytes);
    let response: RawResponse | undefined;
    await this.until(() => (response = this.parse()) !== undefined);
    return response!;
  }

  /** A complete Content-Length response at the start of the buffer, consumed; else undefined. */
  private parse(): RawResponse | undefined {
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const [statusLine, ...lines] = this.buffer.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
      }),
    );
    const length = Number(headers['content-length'] ?? 0);
    if (this.buffer.length < end + 4 + length) return undefined;
    const body = this.buffer.slice(end + 4, end + 4 + length);
    this.buffer = this.buffer.slice(end + 4 + length);
    return { status: Number(statusLine.split(' ')[1]), headers, body };
  }

  private until(condition: () => boolean): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((done, fail) => {
      const listener = (): void => {
        if (!condition()) return;
        this.listeners.splice(this.listeners.indexOf(listener), 1);
        done();
      };
      this.listeners.push(listener);
      void this.closed.then(() => fail(new Error(`connection closed; received: ${this.buffer}`)));
    });
  }
}

/** Resolves with the error code of a connection attempt that fails (or 'connected'). */
export function tryConnect(port: number): Promise<string> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      done('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? 'error'));
  });
}
