import { AppError } from './app-error';
import { ERROR_STATUS, ErrorCode } from './error-code';

describe('ERROR_STATUS', () => {
  it('gives each code of docs/contract/README.md#errors its status', () => {
    const spec: Record<string, number> = {
      missing_api_key: 401,
      invalid_api_key: 401,
      insufficient_scope: 403,
      rate_limited: 429,
      user_not_found: 404,
      invalid_body: 400,
      empty_body: 400,
      invalid_user_id: 400,
      query_failed: 500,
      context_missing: 500,
    };
    for (const [code, status] of Object.entries(spec)) {
      expect([code, ERROR_STATUS[code as ErrorCode]]).toEqual([code, status]);
    }
  });

  it('gives the codes of docs/errors.md their documented status', () => {
    expect(ERROR_STATUS).toMatchObject({
      invalid_query: 400,
      invalid_group: 400,
      unknown_field: 400,
      invalid_request: 400,
      not_found: 404,
      method_not_allowed: 405,
      conflict: 409,
      payload_too_large: 413,
      unsupported_media_type: 415,
      internal_error: 500,
      service_unavailable: 503,
      database_unavailable: 503,
      unauthenticated: 401,
      invalid_credentials: 401,
      csrf_failed: 403,
      forbidden: 403,
      passkey_confirmation_required: 403,
      passkey_not_registered: 409,
      recent_sign_in_required: 403,
      insecure_endpoint: 400,
    });
  });

  it('has exactly one error status per code', () => {
    expect(Object.keys(ERROR_STATUS).sort()).toEqual(Object.values(ErrorCode).sort());
    for (const status of Object.values(ERROR_STATUS)) {
      expect(status >= 400 && status <= 599).toBe(true);
    }
  });

  it('is where an AppError takes its status from', () => {
    const error = new AppError(ErrorCode.UserNotFound, 'User not found');
    expect(error.status).toBe(404);
    expect(error.toBody()).toEqual({ error: 'user_not_found', message: 'User not found' });
  });
});
