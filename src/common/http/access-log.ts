import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Options } from 'pino-http';
import { currentTraceId } from '../../telemetry/trace-id';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Secrets never reach the logs: credentials, cookies and redirect targets carrying codes. */
const REDACTED = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'res.headers.location',
];

/**
 * The access log's pino-http options: one JSON line per request at `level`, with a request id
 * and the path only. The service gives them to nestjs-pino (app.module.ts); the benchmark's
 * peers use the same ones, so every target logs alike (docs/performance/oauth.md).
 */
export function accessLogOptions(level: string): Options {
  return {
    level,
    redact: { paths: REDACTED, censor: '[redacted]' },
    // With tracing on, the trace id (the caller's, from traceparent, or a new one); otherwise a
    // well-formed X-Request-Id from the proxy, or a new one (docs/operations.md, "Traces").
    genReqId: (req: IncomingMessage, res: ServerResponse) => {
      const given = req.headers['x-request-id'];
      const id =
        currentTraceId() ??
        (typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID());
      res.setHeader('X-Request-Id', id);
      return id;
    },
    // Query strings of OAuth redirects may carry state; log the path only.
    serializers: {
      req: (req: { id: unknown; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        path: req.url.split('?')[0],
      }),
    },
  };
}
