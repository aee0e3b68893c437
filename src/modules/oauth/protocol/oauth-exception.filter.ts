import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  isDatabaseUnavailable,
  logDatabaseUnavailable,
} from '../../../database/connection-errors';
import { logRequestFailure } from '../../../common/errors/request-failure-log';
import { SigningKeyUnavailableError } from '../../signing-keys/key-material';
import { OAuthError, RefusedRequestError } from './oauth-error';

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

  private toOAuthError(exception: unknown, request: Request): OAuthError {
    if (exception instanceof OAuthError) return exception;
    if (exception instanceof HttpException && exception.getStatus() < 500) {
      return new RefusedRequestError('The request is malformed', exception.getStatus());
    }
    if (isDatabaseUnavailable(exception)) {
      logDatabaseUnavailable(this.logger, exception, request);
      // RFC 6749 section 4.1.2.1 names temporarily_unavailable; used here with its 503.
      return new OAuthError('temporarily_unavailable', 'The service is temporarily unavailable');
    }
    if (exception instanceof SigningKeyUnavailableError) {
      // SigningKeysService logged the kid and the remedy (docs/oidc.md, "Signing keys").
      return new OAuthError('server_error', 'The ID token cannot be signed (see the service log)');
    }
    logRequestFailure(this.logger, exception, request, 'OAuth request failed');
    return new OAuthError('server_error', 'Internal server error');
  }
}

/** Writes an OAuth error response (also used for bodies refused before routing). */
export function sendOAuthError(response: Response, error: OAuthError): void {
  response.setHeader('Cache-Control', 'no-store');
  response.setHeader('Pragma', 'no-cache');
  if (error.wwwAuthenticate) response.setHeader('WWW-Authenticate', error.wwwAuthenticate);
  if (error.status === 503) response.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
  response.status(error.status).json({ error: error.error, error_description: error.description });
}
