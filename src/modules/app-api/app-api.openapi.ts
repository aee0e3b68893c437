import { applyDecorators } from '@nestjs/common';
import { ApiParam, ApiQuery } from '@nestjs/swagger';
import {
  ApiErrorResponse,
  RATE_LIMIT_HEADERS,
  RETRY_AFTER,
} from '../../common/errors/error-body.openapi';
import { ApiKeyAuth } from '../../common/http/openapi-security';
import { GROUP_CODES } from '../users/groups';
import {
  DEFAULT_PAGE_SIZE,
  MAX_KEYWORD_LENGTH,
  MAX_PAGE,
  MAX_PAGE_SIZE,
} from '../users/user-query';

// Documentation of /api/v1/app (spec sections 4.1, 5, 7, 8; docs/errors.md). The parsers in
// users/user-query.ts and events/event-query.ts do the checking; these decorators describe it.

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

/** GET /users query (spec section 4.1; docs/users-api.md). */
export const UserListQueryDocs = (): MethodDecorator =>
  applyDecorators(
    ApiQuery({
      name: 'page',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 },
    }),
    ApiQuery({
      name: 'pageSize',
      required: false,
      schema: { type: 'integer', minimum: 1, default: DEFAULT_PAGE_SIZE },
      description: `Rows per page; values above ${MAX_PAGE_SIZE} are clamped to ${MAX_PAGE_SIZE}`,
    }),
    ApiQuery({
      name: 'keyword',
      required: false,
      schema: { type: 'string', maxLength: MAX_KEYWORD_LENGTH },
      description: 'Case-insensitive substring of the username or email',
    }),
    ApiQuery({ name: 'group', required: false, enum: GROUP_CODES, description: 'Exact group' }),
    ApiQuery({ name: 'enabled', required: false, schema: { type: 'boolean' } }),
    ApiErrorResponse(
      400,
      'invalid_query: a malformed, repeated or unknown query parameter (docs/errors.md)',
    ),
  );
