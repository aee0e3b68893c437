import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  isDatabaseUnavailable,
  logDatabaseUnavailable,
} from '../../../common/errors/connection-errors';
import { logRequestFailure } from '../../../common/errors/request-failure-log';
import { SigningKeyUnavailableError } from '../../signing-keys/key-material';
import { OAuthError, RefusedRequestError, type OAuthErrorCode } from './oauth-error';

/**
 * Errors of /api/oauth2/* in RFC 6749 section 5.2 / RFC 6750 section 3 form:
 * `{error, error_description}` plus WWW-Authenticate where those sections ask for it.
 * Scoped to the OAuth controllers, so the application API's `{error, message}` filter stays there.
 */
@Catch()
export class OAuthExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('OAuthErrors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const request = host.switchToHttp().getRequest<Request>();
    if (response.headersSent) return;
    sendOAuthError(response, this.toOAuthError(exception, request));
  }

  /** The answer to `exception`: the `error` oauthErrorCode names, its description, the log. */
  private toOAuthError(exception: unknown, request: Request): OAuthError {
    if (exception instanceof OAuthError) return exception;
    const error = oauthErrorCode(exception);
    if (error === 'invalid_request' && exception instanceof HttpException) {
      return new RefusedRequestError('The request is malformed', exception.getStatus());
    }
    if (error === 'temporarily_unavailable') {
      logDatabaseUnavailable(this.logger, exception, request);
      return new OAuthError(error, 'The service is temporarily unavailable');
    }
    if (exception instanceof SigningKeyUnavailableError) {
      // SigningKeysService logged the kid and the remedy (docs/oidc.md, "Signing keys").
      return new OAuthError('server_error', 'The ID token cannot be signed (see the service log)');
    }
    logRequestFailure(this.logger, exception, request, 'OAuth request failed');
    return new OAuthError('server_error', 'Internal server error');
  }
}

/**
 * The `error` an OAuth endpoint answers `exception` with: an OAuthError's own; invalid_request for
 * a request the framework refused (an HttpException below 500); temporarily_unavailable when the
 * database is unreachable (RFC 6749 section 4.1.2.1 names it; used here with its 503); otherwise
 * server_error. The one mapping of OAuthExceptionFilter and of the token endpoint's metric
 * (token/token-metrics.ts), which counts the code the client receives; it neither logs nor builds
 * an error, so counting a failure costs no stack trace.
 */
export function oauthErrorCode(exception: unknown): OAuthErrorCode {
  if (exception instanceof OAuthError) return exception.error;
  if (exception instanceof HttpException && exception.getStatus() < 500) return 'invalid_request';
  return isDatabaseUnavailable(exception) ? 'temporarily_unavailable' : 'server_error';
}

/** Writes an OAuth error response (also used for bodies refused before routing). */
export function sendOAuthError(response: Response, error: OAuthError): void {
  response.setHeader('Cache-Control', 'no-store');
  response.setHeader('Pragma', 'no-cache');
  if (error.wwwAuthenticate) response.setHeader('WWW-Authenticate', error.wwwAuthenticate);
  if (error.dpopNonce) response.setHeader('DPoP-Nonce', error.dpopNonce);
  if (error.status === 503) response.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
  response.status(error.status).json({ error: error.error, error_description: error.description });
}
