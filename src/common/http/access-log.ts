import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LoggerService } from '@nestjs/common';
import { Logger, PinoLogger } from 'nestjs-pino';
import { pinoHttp, type HttpLogger, type Options } from 'pino-http';
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
 * and the path only. The service mounts them through serviceLogs below; the benchmark's peers
 * use the same ones, so every target logs alike (docs/performance/oauth.md).
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
    // Query strings of OAuth redirects may carry state; log the path only. Of the answer, the
    // status only: its headers say nothing the line does not, and serializing them costs.
    serializers: {
      req: (req: { id: unknown; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        path: req.url.split('?')[0],
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  };
}

export interface ServiceLogs {
  /** pino-http: sets the request id and X-Request-Id, writes the access-log line. */
  accessLog: HttpLogger;
  /** Nest's logger (nestjs-pino's adapter), writing through the access log's pino logger. */
  nestLogger: LoggerService;
}

/**
 * The service's logs (docs/operations.md, "Logs"): one pino logger for the access log and for
 * every line written through Nest's Logger.
 *
 * The request id is carried by the request, never by an AsyncLocalStorage: nestjs-pino's own
 * middleware binds the request's logger with one, and on Node 20 a storage that has run once
 * puts promise hooks on every promise of the process for good (about 30 % of the CPU of an
 * OAuth request, docs/performance/oauth.md). So pino-http is mounted by configureApp itself,
 * and code that logs about a request names its id (the exception filters' `requestId`).
 */
export function serviceLogs(level: string): ServiceLogs {
  const accessLog = pinoHttp(accessLogOptions(level));
  const params = { pinoHttp: { logger: accessLog.logger } };
  return { accessLog, nestLogger: new Logger(new PinoLogger(params), params) };
}
