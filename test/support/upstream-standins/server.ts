import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInRequest {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  /** The body as text (form or JSON, as the protocol has it). */
  body: string;
}

export interface StandInResponse {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface RunningStandIn {
  origin: string;
  close(): Promise<void>;
}

/** A loopback HTTP server answering with `handle`; the protocol lives in each stand-in. */
export async function startStandIn(
  handle: (req: StandInRequest) => StandInResponse | Promise<StandInResponse>,
): Promise<RunningStandIn> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
        const answer = await handle({
          method: req.method ?? 'GET',
          url: new URL(req.url ?? '/', origin),
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        res.writeHead(answer.status ?? 200, answer.headers ?? {});
        res.end(answer.body ?? '');
      })().catch((error: unknown) => {
        res.writeHead(500);
        res.end(String(error));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(value: unknown, status = 200): StandInResponse {
  return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) };
}

export function redirect(location: string): StandInResponse {
  return { status: 302, headers: { location } };
}

/** Parameters of a form body, or of a JSON body (GitHub accepts both). */
export function formOf(req: StandInRequest): URLSearchParams {
  if (String(req.headers['content-type']).startsWith('application/json')) {
    return new URLSearchParams(JSON.parse(req.body) as Record<string, string>);
  }
  return new URLSearchParams(req.body);
}
