/**
 * The peers' access log, so that every target logs alike: the same pino-http options the
 * identity service gives nestjs-pino (src/app.module.ts: request id from X-Request-Id or a fresh
 * UUID, echoed in the response; path-only request serializer; redaction), one JSON line per
 * request at `info` to stdout (which the harness sends to /dev/null for every target).
 * BENCH_LOG_LEVEL=silent turns it off everywhere, ours included.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Options } from 'pino-http';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export function accessLogOptions(level: string): Options {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        'res.headers.location',
      ],
      censor: '[redacted]',
    },
    genReqId: (req: IncomingMessage, res: ServerResponse) => {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
      res.setHeader('X-Request-Id', id);
      return id;
    },
    serializers: {
      req: (req: { id: unknown; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        path: req.url.split('?')[0],
      }),
    },
  };
}
