/**
 * The fast webhook receiver of `npm run bench:webhooks`, a process of its own (forked by
 * webhooks.bench.ts through bench/oauth/child.ts's protocol): a plain node:http server on
 * 127.0.0.1 that reads the body and answers 204 at once. It checks the Standard Webhooks
 * signature (the `standardwebhooks` library, against the secret of the request's path) of the
 * first request of each path and of every BENCH_VERIFY_EVERY-th request, and records of every
 * request its arrival time, its delay since the event's createdAt, and whether its event id came
 * in ascending order for its path.
 */
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

const VERIFY_EVERY = Number(process.env.BENCH_VERIFY_EVERY ?? 20);

export type ReceiverRequest =
  { op: 'trust'; secrets: [path: string, secret: string][] } | { op: 'count' } | { op: 'take' };

/** What arrived since the last `take`. */
export interface Arrivals {
  /** Arrival times, ms since the epoch (Date.now()). */
  at: number[];
  /** Arrival minus the event's createdAt, ms. */
  lagMs: number[];
  verified: number;
  /** Requests whose signature did not verify (answered 400). */
  rejected: string[];
  /** Distinct endpoints (paths) that received at least one request. */
  endpoints: number;
  /** A webhook-id not above the last one of its path: a repeat (at least once) or out of order. */
  notAscending: number;
}

const secrets = new Map<string, Webhook>();
const lastId = new Map<string, number>();
let seen = 0;
let arrivals: Arrivals = fresh();
let reached = new Set<string>();

function fresh(): Arrivals {
  return { at: [], lagMs: [], endpoints: 0, verified: 0, rejected: [], notAscending: 0 };
}

function handle(req: IncomingMessage, res: ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const now = Date.now();
    const path = req.url ?? '';
    const raw = Buffer.concat(chunks).toString('utf8');
    const previous = lastId.get(path);
    seen += 1;
    if (previous === undefined || seen % VERIFY_EVERY === 0) {
      try {
        const webhook = secrets.get(path);
        if (!webhook) throw new Error('no secret for this path');
        webhook.verify(raw, req.headers as Record<string, string>);
        arrivals.verified += 1;
      } catch (error) {
        arrivals.rejected.push(`${path}: ${String(error)}`);
        res.writeHead(400).end();
        return;
      }
    }
    const body = JSON.parse(raw) as { timestamp: string; data: { id: number } };
    const id = Number(body.data.id);
    if (previous !== undefined && id <= previous) arrivals.notAscending += 1;
    lastId.set(path, id);
    reached.add(path);
    arrivals.at.push(now);
    arrivals.lagMs.push(now - Date.parse(body.timestamp));
    res.writeHead(204).end();
  });
}

const server = createServer(handle);
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.send!({ ready: { url: `http://127.0.0.1:${port}` } });
});

process.on('message', (message: { id: number } & ReceiverRequest) => {
  let result: unknown;
  switch (message.op) {
    case 'trust':
      for (const [path, secret] of message.secrets) secrets.set(path, new Webhook(secret));
      result = true;
      break;
    case 'count':
      result = arrivals.at.length;
      break;
    case 'take':
      result = { ...arrivals, endpoints: reached.size };
      arrivals = fresh();
      reached = new Set();
      break;
  }
  process.send!({ id: message.id, result });
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
