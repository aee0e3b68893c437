import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse, RETRY_AFTER } from '../../common/errors/error-body.openapi';
import type { RawQuery } from '../../common/http/query-params';
import { EventFeedService } from '../events/event-feed.service';
import { DEFAULT_EVENT_LIMIT, MAX_EVENT_LIMIT, parseEventListQuery } from '../events/event-query';
import { EVENT_TYPES } from '../events/event-types';
import { EventPage } from '../events/event-view';
import { ApiKeyContext, CurrentApiKey } from '../keys/api-key-context';
import { RequireScopes } from '../keys/auth.decorators';
import { AppApiRoute } from './app-api.openapi';

@ApiTags('application API')
@AppApiRoute({ scoped: true })
@Controller('api/v1/app/events')
export class EventsController {
  constructor(private readonly events: EventFeedService) {}

  /**
   * GET /events (spec sections 4.1, 6): newest first with `before`/`beforeId`, or forward in
   * id order with `after` (docs/events.md). The query is parsed by parseEventListQuery; the
   * decorators only describe it in the OpenAPI document.
   */
  @Get()
  @RequireScopes('user:read')
  @ApiOperation({
    summary: 'Authorization events, newest first or forward by id (scope user:read)',
  })
  @ApiQuery({
    name: 'limit',
    required: false,
    schema: { type: 'integer', minimum: 1, default: DEFAULT_EVENT_LIMIT },
    description: `Events per page; values above ${MAX_EVENT_LIMIT} are clamped to ${MAX_EVENT_LIMIT}`,
  })
  @ApiQuery({
    name: 'before',
    required: false,
    schema: { type: 'string', format: 'date-time' },
    description: 'Newest-first paging: only events created before this time (RFC 3339)',
  })
  @ApiQuery({
    name: 'beforeId',
    required: false,
    schema: { type: 'integer', minimum: 1 },
    description:
      'With before only: the id of the last event seen; returns events with (createdAt, id) < (before, beforeId)',
  })
  @ApiQuery({
    name: 'after',
    required: false,
    schema: { type: 'integer', minimum: 0 },
    description:
      'Forward sync: events with a larger id, in ascending id order, never past an id that a smaller one could still precede. Not with before/beforeId',
  })
  @ApiQuery({ name: 'eventType', required: false, enum: EVENT_TYPES })
  @ApiOkResponse({ type: EventPage })
  @ApiErrorResponse(
    400,
    'invalid_query: a malformed, repeated or unknown query parameter (docs/errors.md)',
  )
  @ApiErrorResponse(
    503,
    'database_unavailable; or service_unavailable (after only: a writer of this application held its transaction open too long, poll again)',
    RETRY_AFTER,
  )
  listEvents(@CurrentApiKey() ctx: ApiKeyContext, @Query() query: RawQuery): Promise<EventPage> {
    return this.events.list(ctx.applicationId, parseEventListQuery(query));
  }
}
