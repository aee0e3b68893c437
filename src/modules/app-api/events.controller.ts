import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse, RETRY_AFTER } from '../../common/errors/error-body.openapi';
import { EventFeedService } from '../events/event-feed.service';
import { EventListQuery } from '../events/event-query';
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
   * GET /events (docs/contract/events.md#get-events): newest first with `before`/`beforeId`, or forward in
   * id order with `after` (docs/events.md). The query is an EventListQuery, checked by the
   * global pipe (src/common/validation) and described in the OpenAPI document by the same class.
   */
  @Get()
  @RequireScopes('user:read')
  @ApiOperation({
    summary: 'Authorization events, newest first or forward by id (scope user:read)',
  })
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
  listEvents(
    @CurrentApiKey() ctx: ApiKeyContext,
    @Query() query: EventListQuery,
  ): Promise<EventPage> {
    return this.events.list(ctx.applicationId, query);
  }
}
