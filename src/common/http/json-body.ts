import { AppError } from '../errors/app-error';
import { ErrorCode } from '../errors/error-code';
import { BodyError, BodyFailure, JSON_BODY_LIMIT } from './request-body';

const APP_ERRORS: Record<BodyFailure, [ErrorCode, string]> = {
  too_large: [
    ErrorCode.PayloadTooLarge,
    `Request body too large (limit ${JSON_BODY_LIMIT / 1024} kB)`,
  ],
  malformed: [ErrorCode.InvalidBody, 'The request body is not valid JSON'],
  invalid_utf8: [ErrorCode.InvalidBody, 'The request body is not valid UTF-8'],
  unsupported_type: [ErrorCode.UnsupportedMediaType, 'Unsupported content type'],
  unsupported_charset: [ErrorCode.UnsupportedMediaType, 'Unsupported body charset (UTF-8 only)'],
  unsupported_encoding: [ErrorCode.UnsupportedMediaType, 'Content-Encoding is not supported'],
};

/**
 * A refused body in the application API's `{error, message}` form (docs/contract/README.md#errors): malformed
 * JSON is 400 invalid_body; the body is read before authentication, so even without a key.
 */
export function appErrorForBody(error: BodyError): AppError {
  const [code, message] = APP_ERRORS[error.failure];
  return new AppError(code, message);
}

/** True for application/json and +json media types (RFC 6839), with or without parameters. */
export function isJsonContentType(value: string | undefined): boolean {
  return value !== undefined && /^application\/([\w.-]+\+)?json\s*(;|$)/i.test(value.trim());
}
