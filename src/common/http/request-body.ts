import { Logger } from '@nestjs/common';
import { isUtf8 } from 'node:buffer';
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import { json, raw, urlencoded } from 'express';

/** Body limits (docs/errors.md): JSON on the application API, forms on the OAuth endpoints. */
export const JSON_BODY_LIMIT = 100 * 1024;
export const FORM_BODY_LIMIT = 32 * 1024;

/** Why a body was refused; each family renders it in its own error format. */
export type BodyFailure =
  | 'too_large'
  | 'malformed'
  | 'invalid_utf8'
  | 'unsupported_type'
  | 'unsupported_charset'
  | 'unsupported_encoding';

const STATUS: Record<BodyFailure, number> = {
  too_large: 413,
  malformed: 400,
  invalid_utf8: 400,
  unsupported_type: 415,
  unsupported_charset: 415,
  unsupported_encoding: 415,
};

/** A request body refused before routing: always the client's fault (4xx, logged as a warning). */
export class BodyError extends Error {
  readonly status: number;

  constructor(readonly failure: BodyFailure) {
    super(`Request body refused: ${failure}`);
    this.name = 'BodyError';
    this.status = STATUS[failure];
  }
}

/** body-parser's error types (its README, "Errors") mapped to our failures. */
const FAILURE_BY_TYPE: Record<string, BodyFailure> = {
  'entity.too.large': 'too_large',
  'parameters.too.many': 'too_large',
  'entity.parse.failed': 'malformed',
  'entity.verify.failed': 'invalid_utf8',
  'charset.unsupported': 'unsupported_charset',
  'encoding.unsupported': 'unsupported_encoding',
};

/** Rejects bytes that are not UTF-8 (body-parser would silently turn them into U+FFFD). */
function strictUtf8(_req: unknown, _res: unknown, buf: Buffer): void {
  if (!isUtf8(buf)) throw new Error('invalid UTF-8');
}

/**
 * Forms also carry UTF-8 percent-encoded: `%FF` alone is as invalid as a raw 0xFF byte.
 * body-parser also accepts charset=iso-8859-1 forms; they are refused like every charset other
 * than UTF-8 (docs/errors.md), by the error type body-parser gives its own refusals.
 */
function strictForm(req: unknown, res: unknown, buf: Buffer, encoding: string): void {
  if (encoding !== 'utf-8') {
    throw Object.assign(new Error(`unsupported charset "${encoding}"`), {
      type: 'charset.unsupported',
    });
  }
  strictUtf8(req, res, buf);
  try {
    decodeURIComponent(buf.toString('utf8').replace(/\+/g, ' '));
  } catch {
    throw new Error('invalid percent-encoding');
  }
}

export interface BodyPolicy {
  json?: boolean;
  /**
   * `'query'`: keys as in a query string (no bracket syntax, repeated names become arrays), the
   * way Express parses the query, for forms that carry the parameters of a GET.
   */
  form?: boolean | 'query';
  /** A non-empty body of any other media type: refuse it (415) or read and ignore it. */
  otherTypes: 'refuse' | 'ignore';
}

const logger = new Logger('RequestBody');

/**
 * Reads the request body once, before routing, with the limits above; Content-Encoding is not
 * supported (identity only: no decompression bombs). Failures reach `next` as a BodyError,
 * for the family's error handler to render. Other media types are read too (up to the JSON
 * limit) so a huge body is always answered 413 after it was drained, never a reset connection.
 */
export function readBody(policy: BodyPolicy): RequestHandler[] {
  const common = { inflate: false };
  const steps: RequestHandler[] = [];
  if (policy.json) steps.push(json({ ...common, limit: JSON_BODY_LIMIT, verify: strictUtf8 }));
  if (policy.form) {
    steps.push(
      urlencoded({
        ...common,
        limit: FORM_BODY_LIMIT,
        extended: policy.form !== 'query',
        verify: strictForm,
      }),
    );
  }
  steps.push(raw({ ...common, type: () => true, limit: JSON_BODY_LIMIT }));
  steps.push(otherTypes(policy.otherTypes));
  return steps.map(reportingFailures);
}

/** Runs after the parsers: a Buffer body is one no parser of this family accepted. */
function otherTypes(mode: BodyPolicy['otherTypes']): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (!Buffer.isBuffer(req.body)) return next();
    const empty = req.body.length === 0;
    req.body = undefined;
    if (empty || mode === 'ignore') return next();
    next(new BodyError('unsupported_type'));
  };
}

function reportingFailures(step: RequestHandler): RequestHandler {
  return (req, res, next) =>
    step(req, res, (error?: unknown) => {
      if (error === undefined || error === null) return next();
      next(toBodyError(error, req));
    });
}

function toBodyError(error: unknown, req: Request): unknown {
  if (error instanceof BodyError) return logged(error, req);
  const { type, status } = error as { type?: string; status?: number };
  const failure = type === undefined ? undefined : FAILURE_BY_TYPE[type];
  if (failure) return logged(new BodyError(failure), req);
  // Aborted or truncated uploads are the client's; stream faults (5xx) stay server errors.
  if (status !== undefined && status < 500) return logged(new BodyError('malformed'), req);
  return error;
}

function logged(error: BodyError, req: Request): BodyError {
  const id = (req as Request & { id?: unknown }).id;
  logger.warn(
    {
      requestId: id,
      route: `${req.method} ${req.originalUrl.split('?')[0]}`,
      failure: error.failure,
    },
    'Request body refused',
  );
  return error;
}

/** An Express error handler for BodyErrors only; anything else goes on to Nest's filters. */
export function onBodyError(
  render: (error: BodyError, req: Request, res: Response) => void,
): ErrorRequestHandler {
  const handler: ErrorRequestHandler = (error: unknown, req, res, next) => {
    if (!(error instanceof BodyError) || res.headersSent) return next(error);
    render(error, req, res);
  };
  return handler;
}
