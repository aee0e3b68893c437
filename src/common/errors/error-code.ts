/** Machine codes of the application API (docs/contract/README.md#errors) plus the ones this service documents in docs/errors.md. */
export enum ErrorCode {
  MissingApiKey = 'missing_api_key',
  InvalidApiKey = 'invalid_api_key',
  InsufficientScope = 'insufficient_scope',
  RateLimited = 'rate_limited',
  UserNotFound = 'user_not_found',
  InvalidBody = 'invalid_body',
  EmptyBody = 'empty_body',
  InvalidUserId = 'invalid_user_id',
  QueryFailed = 'query_failed',
  ContextMissing = 'context_missing',
  // Not in the earlier service's table; documented in docs/errors.md.
  InvalidQuery = 'invalid_query',
  InvalidGroup = 'invalid_group',
  UnknownField = 'unknown_field',
  NotFound = 'not_found',
  MethodNotAllowed = 'method_not_allowed',
  PayloadTooLarge = 'payload_too_large',
  UnsupportedMediaType = 'unsupported_media_type',
  InvalidRequest = 'invalid_request',
  Conflict = 'conflict',
  ServiceUnavailable = 'service_unavailable',
  DatabaseUnavailable = 'database_unavailable',
  InternalError = 'internal_error',
  // Owner console (docs/console.md).
  Unauthenticated = 'unauthenticated',
  InvalidCredentials = 'invalid_credentials',
  CsrfFailed = 'csrf_failed',
  Forbidden = 'forbidden',
  PasskeyConfirmationRequired = 'passkey_confirmation_required',
  PasskeyNotRegistered = 'passkey_not_registered',
  RecentSignInRequired = 'recent_sign_in_required',
  // Upstream providers (admin CLI, docs/upstreams.md).
  InsecureEndpoint = 'insecure_endpoint',
}

/**
 * The one place a code gets its HTTP status (docs/contract/README.md#errors, docs/errors.md): a code cannot
 * have two, and the compiler rejects a code without one (the Record is exhaustive).
 */
export const ERROR_STATUS: Readonly<Record<ErrorCode, number>> = {
  // docs/contract/README.md#errors. keys: authentication and scopes.
  [ErrorCode.MissingApiKey]: 401,
  [ErrorCode.InvalidApiKey]: 401,
  [ErrorCode.InsufficientScope]: 403,
  [ErrorCode.ContextMissing]: 500,
  // rate-limit
  [ErrorCode.RateLimited]: 429,
  // users
  [ErrorCode.UserNotFound]: 404,
  [ErrorCode.InvalidUserId]: 400,
  [ErrorCode.EmptyBody]: 400,
  // shared
  [ErrorCode.InvalidBody]: 400,
  [ErrorCode.QueryFailed]: 500,

  // This service's own codes (docs/errors.md). users: PATCH /users/:userId.
  [ErrorCode.InvalidGroup]: 400,
  [ErrorCode.UnknownField]: 400,
  // shared: queries, routing, bodies, admin operations, outages.
  [ErrorCode.InvalidQuery]: 400,
  [ErrorCode.InvalidRequest]: 400,
  [ErrorCode.NotFound]: 404,
  [ErrorCode.MethodNotAllowed]: 405,
  [ErrorCode.Conflict]: 409,
  [ErrorCode.PayloadTooLarge]: 413,
  [ErrorCode.UnsupportedMediaType]: 415,
  [ErrorCode.InternalError]: 500,
  [ErrorCode.ServiceUnavailable]: 503,
  [ErrorCode.DatabaseUnavailable]: 503,
  // console: sessions, CSRF, roles (docs/console.md).
  [ErrorCode.Unauthenticated]: 401,
  [ErrorCode.InvalidCredentials]: 401,
  [ErrorCode.CsrfFailed]: 403,
  [ErrorCode.Forbidden]: 403,
  // passkeys: confirmations and registration (docs/console.md).
  [ErrorCode.PasskeyConfirmationRequired]: 403,
  [ErrorCode.PasskeyNotRegistered]: 409,
  [ErrorCode.RecentSignInRequired]: 403,
  // upstreams: a provider endpoint on plain http off loopback (docs/upstreams.md).
  [ErrorCode.InsecureEndpoint]: 400,
};
