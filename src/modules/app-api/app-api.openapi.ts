import { applyDecorators } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import {
  ApiErrorResponse,
  RATE_LIMIT_HEADERS,
  RETRY_AFTER,
} from '../../common/errors/error-body.openapi';
import { ApiKeyAuth } from '../../common/http/openapi-security';

// Documentation of /api/v1/app (docs/contract/README.md, docs/contract/api-keys.md; docs/errors.md): the answers
// routes share. Bodies and query strings are described by their DTO classes (users/user-patch.ts,
// users/user-query.ts, events/event-query.ts), the same classes the global pipe checks.

/**
 * On every application API controller: the API key and the answers any route may give
 * before or after its handler (authentication, scopes, rate limit, outages).
 */
export const AppApiRoute = ({ scoped }: { scoped: boolean }): ClassDecorator =>
  applyDecorators(
    ApiKeyAuth(),
    ApiErrorResponse(401, 'missing_api_key (no Authorization header) or invalid_api_key'),
    ...(scoped
      ? [
          ApiErrorResponse(
            403,
            'insufficient_scope: the key lacks the scope this route needs (body adds required_any_of and granted_scopes)',
          ),
        ]
      : []),
    ApiErrorResponse(429, 'rate_limited: the application used its quota (body adds retry_after)', {
      ...RATE_LIMIT_HEADERS,
      ...RETRY_AFTER,
    }),
    ApiErrorResponse(500, 'query_failed, context_missing or internal_error'),
    ApiErrorResponse(503, 'database_unavailable: PostgreSQL cannot be reached', RETRY_AFTER),
  );

const INVALID_USER_ID = 'invalid_user_id: not decimal digits within the bigint range';

/**
 * The `:userId` path parameter and its refusals; `more400` names the route's other 400 codes
 * (one description per status: a second decorator for 400 would replace the first).
 */
export const UserIdParam = (more400?: string): MethodDecorator =>
  applyDecorators(
    ApiParam({
      name: 'userId',
      description: 'Numeric user id (decimal digits)',
      schema: { type: 'string', pattern: '^[0-9]+$' },
    }),
    ApiErrorResponse(400, more400 ? `${INVALID_USER_ID}; ${more400}` : INVALID_USER_ID),
    ApiErrorResponse(404, 'user_not_found: no such user, or not related to this application'),
  );

/** The 400 of a route with a query DTO (GET /users, GET /events; docs/errors.md). */
export const InvalidQuery = (): MethodDecorator =>
  ApiErrorResponse(
    400,
    'invalid_query: a malformed, repeated or unknown query parameter (docs/errors.md)',
  );
