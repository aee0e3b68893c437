import { Logger } from '@nestjs/common';
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import {
  BodyError,
  BodyFailure,
  FORM_BODY_LIMIT,
  onBodyError,
} from '../../common/http/request-body';
import { OAuthError, RefusedRequestError } from './protocol/oauth-error';
import { sendOAuthError } from './protocol/oauth-exception.filter';
import { sendErrorPage } from './interaction/page-exception.filter';
import { pageLanguageOf } from '../../common/i18n/page-language';
import { msg } from '../../common/i18n/i18n';
import { holdsControlCharacter } from '../../common/validation/control-characters';

const DESCRIPTIONS: Record<BodyFailure, string> = {
  too_large: `The request body is larger than ${FORM_BODY_LIMIT / 1024} kB`,
  malformed: 'The request body is not a valid form',
  invalid_utf8: 'The request body is not valid UTF-8',
  // Same text as the OAuth endpoints' own check (protocol/params.ts, readForm).
  unsupported_type: 'Content-Type must be application/x-www-form-urlencoded',
  unsupported_charset: 'The form must be UTF-8',
  unsupported_encoding: 'Content-Encoding is not supported',
};

/**
 * RFC 6749 section 5.2 answers 400 invalid_request for a malformed request; an oversized one
 * keeps the same error code with 413, the status any proxy in front would give (docs/oauth.md).
 */
export function oauthErrorForBody(error: BodyError): OAuthError {
  const status = error.failure === 'too_large' ? 413 : 400;
  return new RefusedRequestError(DESCRIPTIONS[error.failure], status);
}

/** Body failures of /api/oauth2/*, rendered before routing in the endpoints' own format. */
export const oauthBodyErrors: ErrorRequestHandler = onBodyError((error, _req, res) =>
  sendOAuthError(res, oauthErrorForBody(error)),
);

/** Body failures of the browser pages /oauth2/*: an HTML page with the HTTP status. */
export function pageBodyErrors(secure: boolean): ErrorRequestHandler {
  return onBodyError((error, req, res) => {
    const message = `${DESCRIPTIONS[error.failure]}.`;
    const page = { status: error.status, title: 'Invalid request', message };
    // Before routing, so before the page routes' middleware: English, as outside the pages.
    sendErrorPage(res, pageLanguageOf(req), page, secure);
  });
}

const logger = new Logger('RequestBody');

/**
 * The browser pages' one check of what a visitor typed or a link carried (mounted after the page
 * language, app.setup.ts): a control character (NUL and the others of
 * common/validation/control-characters.ts) in any name or value of the query string or of the
 * form is a 400 page in the page's language, before any page reads a parameter. No page field
 * takes one, and PostgreSQL refuses NUL in text: without this, `%00` in a sign-in's username was
 * a 500. Logged once at warn, like a refused body.
 */
export function pageControlCharacters(secure: boolean): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const form = typeof req.body === 'object' && req.body !== null ? (req.body as unknown) : {};
    if (!holdsControlCharacter(req.query) && !holdsControlCharacter(form)) return next();
    logger.warn(
      {
        requestId: (req as Request & { id?: unknown }).id,
        route: `${req.method} ${req.originalUrl.split('?')[0]}`,
        failure: 'control_character',
      },
      'Request refused',
    );
    const title = msg('errors.invalidRequestTitle');
    const page = { status: 400, title, message: msg('errors.controlCharacter') };
    sendErrorPage(res, pageLanguageOf(req), page, secure);
  };
}
