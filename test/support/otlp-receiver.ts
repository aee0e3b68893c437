import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as the OTLP/HTTP JSON exporter posts it, flattened; ids as hex strings. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, unknown>;
  /** The resource's attributes (service.name, ...). */
  resource: Record<string, unknown>;
}

interface OtlpKeyValue {
  key: string;
  value: Record<string, unknown>;
}
interface OtlpRequest {
  resourceSpans: {
    resource?: { attributes?: OtlpKeyValue[] };
    scopeSpans: {
      spans: (Omit<ReceivedSpan, 'attributes' | 'resource'> & { attributes?: OtlpKeyValue[] })[];
    }[];
  }[];
}

function attributesOf(list: OtlpKeyValue[] = []): Record<string, unknown> {
  return Object.fromEntries(list.map(({ key, value }) => [key, Object.values(value)[0]]));
}

/**
 * An OTLP/HTTP trace receiver on 127.0.0.1 (POST /v1/traces, JSON), as a collector would run
 * one: keeps every span it is sent. With `discard`, a sink that accepts and keeps nothing
 * (the benchmark's).
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  private server?: Server;
  private waiters: (() => void)[] = [];

  constructor(private readonly options: { discard?: boolean } = {}) {}

  /** Listens on a free port; resolves with the value for OTEL_EXPORTER_OTLP_ENDPOINT. */
  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (!this.options.discard) this.collect(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((done) => this.server!.listen(0, '127.0.0.1', done));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((done) => this.server?.close(() => done()) ?? done());
  }

  /** Resolves once a received span satisfies `test`. */
  async waitFor(test: (span: ReceivedSpan) => boolean): Promise<ReceivedSpan> {
    for (;;) {
      const found = this.spans.find(test);
      if (found) return found;
      await new Promise<void>((done) => this.waiters.push(done));
    }
  }

  private collect(body: string): void {
    const request = JSON.parse(body) as OtlpRequest;
    for (const { resource, scopeSpans } of request.resourceSpans) {
      for (const { spans } of scopeSpans) {
        for (const span of spans) {
          this.spans.push({
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId || undefined,
            name: span.name,
            kind: span.kind,
            attributes: attributesOf(span.attributes),
            resource: attributesOf(resource?.attributes),
          });
        }
      }
    }
    for (const wake of this.waiters.splice(0)) wake();
  }
}
