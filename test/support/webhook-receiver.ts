import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request the receiver accepted as correctly signed. */
export interface ReceivedWebhook {
  path: string;
  id: string;
  body: {
    type: string;
    timestamp: string;
    data: { id: number; eventType: string; userId?: string | null; user?: unknown };
  };
  headers: IncomingMessage['headers'];
  /** The body as it arrived, for verifying it again with another secret. */
  raw: string;
}

/** What the receiver answers to the next request of a path; 200 when nothing is scripted. */
export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  /** The answer is sent only once this settles (a request held in flight). */
  until?: Promise<void>;
}

/**
 * A webhook receiver on 127.0.0.1, as an application would run one: every request is verified
 * with the Standard Webhooks library (`Webhook.verify`) against the secret of its path; a
 * request that fails verification is kept in `rejected` (and answered 400), never in `received`.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  readonly rejected: string[] = [];
  private readonly secrets = new Map<string, string>();
  private readonly scripts = new Map<string, ScriptedAnswer[]>();
  private readonly waiters: (() => void)[] = [];
  private server?: Server;
  private port = 0;
  private base = '';

  /** Listens on a free port; started again after stop(), on the port it had (URLs stay valid). */
  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((done) => this.server!.listen(this.port, '127.0.0.1', done));
    this.port = (this.server.address() as AddressInfo).port;
    this.base = `http://127.0.0.1:${this.port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((done) => this.server?.close(() => done()) ?? done());
  }

  url(path: string): string {
    return `${this.base}${path}`;
  }

  /** The secret requests to `path` must be signed with (printed by `webhook add`). */
  trust(path: string, secret: string): void {
    this.secrets.set(path, secret);
  }

  /** The answers to the next requests of `path`, in order. */
  script(path: string, ...answers: ScriptedAnswer[]): void {
    this.scripts.set(path, answers);
  }

  /** The webhook-ids received on a path, in arrival order. */
  ids(path: string): string[] {
    return this.received.filter((r) => r.path === path).map((r) => r.id);
  }

  /** Resolves when the next verified request has arrived (before it is answered). */
  nextRequest(): Promise<void> {
    return new Promise((done) => this.waiters.push(done));
  }

  reset(): void {
    this.received.length = 0;
    this.rejected.length = 0;
    this.secrets.clear();
    this.scripts.clear();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const payload = Buffer.concat(chunks).toString('utf8');
    const path = req.url ?? '';
    try {
      const secret = this.secrets.get(path);
      if (secret === undefined) throw new Error(`no secret for ${path}`);
      const body = new Webhook(secret).verify(payload, req.headers as Record<string, string>);
      this.received.push({
        path,
        id: String(req.headers['webhook-id']),
        body: body as ReceivedWebhook['body'],
        headers: req.headers,
        raw: payload,
      });
    } catch (error) {
      this.rejected.push(`${path}: ${String(error)}`);
      res.writeHead(400).end();
      return;
    }
    const answer = this.scripts.get(path)?.shift() ?? { status: 200 };
    for (const wake of this.waiters.splice(0)) wake();
    await answer.until;
    res.writeHead(answer.status, answer.headers).end('ok');
  }
}
