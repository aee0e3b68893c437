import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { RawQuery } from '../../common/http/query-params';
import { EventFeedService } from '../events/event-feed.service';
import { parseEventListQuery } from '../events/event-query';
import { ApiKeyContext, CurrentApiKey } from '../keys/api-key-context';
import { RequireScopes } from '../keys/auth.decorators';
import { EventPageDto } from './events.dto';

@ApiTags('application API')
@ApiBearerAuth()
@Controller('api/v1/app/events')
export class EventsController {
  constructor(private readonly events: EventFeedService) {}

  /** GET /events: newest first, ties broken by id (spec section 6, docs/events.md). */
  @Get()
  @RequireScopes('user:read')
  listEvents(@CurrentApiKey() ctx: ApiKeyContext, @Query() query: RawQuery): Promise<EventPageDto> {
    return this.events.list(ctx.applicationId, parseEventListQuery(query));
  }
}
