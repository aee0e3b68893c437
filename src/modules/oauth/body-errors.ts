import type { ErrorRequestHandler } from 'express';
import {
  BodyError,
  BodyFailure,
  FORM_BODY_LIMIT,
  onBodyError,
} from '../../common/http/request-body';
import { OAuthError, RefusedRequestError } from './protocol/oauth-error';
import { sendOAuthError } from './protocol/oauth-exception.filter';
import { sendErrorPage } from '../pages/page-exception.filter';
import { pageLanguageOf } from '../../common/i18n/page-language';

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
