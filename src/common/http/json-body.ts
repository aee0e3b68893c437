import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { json } from 'express';
import { AppError } from '../errors/app-error';
import { ErrorCode } from '../errors/error-code';

/** Same limits as Nest's default JSON parser (100 kB, objects and arrays only). */
const parser = json({ limit: '100kb', strict: true });

/**
 * JSON body parsing for the application API, answering malformed JSON with the spec's
 * 400 invalid_body (section 7) instead of a generic error. It runs before Nest's own parser,
 * which then sees the body as parsed and skips it.
 */
export const applicationApiJsonBody: RequestHandler = (
  req: Request,
  res: Response,
  next: NextFunction,
) => {
  parser(req, res, (error?: unknown) => {
    if (error === undefined || error === null) return next();
    const status = (error as { status?: number }).status;
    if (status === 413) {
      return next(new AppError(ErrorCode.PayloadTooLarge, 413, 'Request body too large'));
    }
    if (status === 415) {
      return next(new AppError(ErrorCode.UnsupportedMediaType, 415, 'Unsupported body encoding'));
    }
    return next(new AppError(ErrorCode.InvalidBody, 400, 'The request body is not valid JSON'));
  });
};

/** True for application/json and +json media types (RFC 6839), with or without parameters. */
export function isJsonContentType(value: string | undefined): boolean {
  return value !== undefined && /^application\/([\w.-]+\+)?json\s*(;|$)/i.test(value.trim());
}
