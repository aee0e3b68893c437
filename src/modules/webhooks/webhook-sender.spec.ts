import { createServer as createHttpServer, Server as HttpServer, ServerResponse } from 'node:http';
import { createServer as createTcpServer, Server as TcpServer, Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { DELIVERY_TIMEOUT_MS, sendWebhook } from './webhook-sender';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
/** A short deadline so the test does not wait the real 10 s; the rule is the same. */
const TIMEOUT_MS = 300;
const LOOPBACK = { allowedPrivateHosts: [], allowLoopback: true };

/**
 * The deadline bounds the whole exchange against real receivers on 127.0.0.1 that hold a
 * delivery: each send settles as a failure naming the deadline, and its connection is closed.
 */
describe('sendWebhook', () => {
  const servers: (HttpServer | TcpServer)[] = [];
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
  });

  async function listen(server: HttpServer | TcpServer): Promise<string> {
    servers.push(server);
    server.on('connection', (socket: Socket) => sockets.push(socket));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  }
  const http = (answer: (res: ServerResponse) => void): Promise<string> =>
    listen(createHttpServer((req, res) => req.resume().on('end', () => answer(res))));
  const send = (url: string, timeoutMs = TIMEOUT_MS) =>
    sendWebhook({ url, secrets: [SECRET], messageId: 'evt_1', body: '{}' }, LOOPBACK, timeoutMs);
  const timedOut = { status: null, error: `no response within ${TIMEOUT_MS} ms` };

  it('gives up on a receiver that never answers', async () => {
    const url = await http(() => undefined);
    expect(await send(url)).toEqual(expect.objectContaining(timedOut));
  });

  it('gives up on a 200 whose body never ends', async () => {
    const url = await http((res) => {
      res.writeHead(200);
      // A byte at a time, never reaching the 4 kB read limit before the deadline.
      const drip = setInterval(() => res.write('.'), 20);
      res.on('close', () => clearInterval(drip));
    });
    expect(await send(url)).toEqual(expect.objectContaining(timedOut));
  });

  it('gives up on a server that accepts the connection and never reads or answers', async () => {
    const url = await listen(createTcpServer(() => undefined));
    expect(await send(url)).toEqual(expect.objectContaining(timedOut));
  });

  it('gives up on a 503 that comes after the deadline', async () => {
    let closed!: () => void;
    const gone = new Promise<void>((done) => (closed = done));
    const url = await http((res) => {
      res.on('close', closed);
      void gone.then(() => res.writableEnded || res.writeHead(503).end());
    });
    expect(await send(url)).toEqual(expect.objectContaining(timedOut));
    // The sender closed the connection at its deadline.
    await gone;
  });

  it('stops reading an endless 200 body at 4 kB and counts the 200', async () => {
    const url = await http((res) => {
      res.writeHead(200);
      const flood = (): void => {
        while (res.write(Buffer.alloc(1024, 'x')));
      };
      res.on('drain', flood);
      flood();
    });
    // The real deadline: this answer must not depend on how busy the machine is.
    expect(await send(url, DELIVERY_TIMEOUT_MS)).toEqual(
      expect.objectContaining({ status: 200, error: null }),
    );
  });
});
