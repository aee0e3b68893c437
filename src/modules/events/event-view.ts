import { ApiProperty } from '@nestjs/swagger';
import { rfc3339 } from '../../common/http/timestamps';

/**
 * The response shapes of GET /events, defined once: these classes are both the feed's return
 * types and, through their decorators, the OpenAPI schemas.
 */

/** docs/contract/events.md#event. */
export class EventView {
  @ApiProperty() id!: number;
  @ApiProperty({ example: 'authorization_granted' }) eventType!: string;
  @ApiProperty({ example: 'oauth2' }) protocol!: string;
  @ApiProperty({ example: 'success' }) status!: string;
  @ApiProperty({ nullable: true, type: String }) userId!: string | null;
  @ApiProperty({ description: 'Space-separated scope names' }) scope!: string;
  @ApiProperty({ description: 'May be empty' }) description!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export class EventPage {
  @ApiProperty({
    type: [EventView],
    description: 'Newest first (createdAt, then id, descending); with after: ascending id',
  })
  items!: EventView[];
  @ApiProperty({ description: 'The limit used (after clamping to 200)' }) limit!: number;
}

/** One row of the feed's query (event-feed.service.ts); ids as text, bigint-safe. */
export interface EventRow {
  id: string;
  event_type: string;
  protocol: string;
  status: string;
  user_id: string | null;
  scope: string;
  description: string;
  created_at: Date;
}

export function toEventView(row: EventRow): EventView {
  return {
    id: Number(row.id),
    eventType: row.event_type,
    protocol: row.protocol,
    status: row.status,
    userId: row.user_id,
    scope: row.scope,
    description: row.description,
    createdAt: rfc3339(row.created_at) ?? '',
  };
}
