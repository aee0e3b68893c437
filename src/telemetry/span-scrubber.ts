import type { ExportResult } from '@opentelemetry/core';
import { SpanKind, type Attributes } from '@opentelemetry/api';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

/** URL attributes (both semantic-convention generations) whose query string is cut off. */
const URL_ATTRIBUTES = ['http.url', 'http.target', 'url.full', 'http.route'];
/** Dropped everywhere: a query string may carry an authorization code or an access token. */
const DROPPED = ['url.query'];
/** Dropped from server spans: the caller's address and user agent identify a person. */
const DROPPED_FROM_SERVER = [
  'client.address',
  'http.client_ip',
  'net.peer.ip',
  'net.sock.peer.addr',
  'network.peer.address',
  'http.user_agent',
  'user_agent.original',
];

/** A span's attributes without query strings, and without the caller's address on a server span. */
export function scrubAttributes(attributes: Attributes, kind: SpanKind): Attributes {
  const dropped = kind === SpanKind.SERVER ? [...DROPPED, ...DROPPED_FROM_SERVER] : DROPPED;
  const clean: Attributes = {};
  for (const [name, value] of Object.entries(attributes)) {
    if (dropped.includes(name)) continue;
    clean[name] =
      URL_ATTRIBUTES.includes(name) && typeof value === 'string' ? value.split('?')[0] : value;
  }
  return clean;
}

/**
 * Wraps the OTLP exporter: every span leaves the process through scrubAttributes (docs/security.md,
 * "Traces"). The span itself is left as the SDK made it; the exporter sees a view of it.
 */
export class ScrubbingExporter implements SpanExporter {
  constructor(private readonly inner: SpanExporter) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.inner.export(
      spans.map(
        (span) =>
          Object.create(span, {
            attributes: { value: scrubAttributes(span.attributes, span.kind), enumerable: true },
          }) as ReadableSpan,
      ),
      done,
    );
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}
