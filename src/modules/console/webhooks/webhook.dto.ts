import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsString,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { IfPresent } from '../../../common/validation/dto-decorators';
import { EVENT_TYPES } from '../../events/event-types';

const DESCRIPTION_MAX = 200;
const URL_MAX = 2048;

const EVENT_TYPES_MESSAGE = `eventTypes must list event types among ${EVENT_TYPES.join(', ')}`;
const DESCRIPTION_MESSAGE = `description must be a string of at most ${DESCRIPTION_MAX} characters`;

const EventTypes = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({
      enum: EVENT_TYPES,
      isArray: true,
      description: 'The event types sent; empty or absent: every type',
    }),
    IfPresent(),
    IsArray({ message: EVENT_TYPES_MESSAGE }),
    ArrayMaxSize(EVENT_TYPES.length, { message: EVENT_TYPES_MESSAGE }),
    IsIn(EVENT_TYPES, { each: true, message: EVENT_TYPES_MESSAGE }),
  );

const Description = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({ maxLength: DESCRIPTION_MAX }),
    IfPresent(),
    IsString({ message: DESCRIPTION_MESSAGE }),
    MaxLength(DESCRIPTION_MAX, { message: DESCRIPTION_MESSAGE }),
  );

const Url = (): PropertyDecorator =>
  applyDecorators(
    ApiProperty({
      maxLength: URL_MAX,
      description:
        'https only; http only on a loopback host when WEBHOOKS_ALLOW_INSECURE=true (docs/webhooks.md, URL rule)',
    }),
    IsString({ message: 'url is required (an https URL)' }),
  );

/** Body of POST /api/console/applications/{id}/webhooks. */
export class NewWebhookBody {
  @Url() url!: string;
  @EventTypes() eventTypes?: string[];
  @Description() description?: string;
}

/** Body of PATCH …/webhooks/{endpointId}: the fields sent change, the others stay. */
export class WebhookPatchBody {
  @EventTypes() eventTypes?: string[];
  @Description() description?: string;

  @ApiPropertyOptional({
    description: 'true also clears the failure state (the held event is retried at once)',
  })
  @IfPresent()
  @IsBoolean({ message: 'enabled must be true or false' })
  enabled?: boolean;
}

/** Body of PUT …/webhooks/{endpointId}/url. */
export class WebhookUrlBody {
  @Url() url!: string;
}

/** Body of POST …/webhooks/{endpointId}/resend. */
export class ResendBody {
  @ApiProperty({ type: 'integer', minimum: 1, description: "One of the application's events" })
  @IsInt({ message: 'eventId must be an event id (a positive integer)' })
  @Min(1, { message: 'eventId must be an event id (a positive integer)' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'eventId must be an event id (a positive integer)' })
  eventId!: number;
}

/** Body of POST …/webhooks/{endpointId}/replay: exactly one of the two. */
export class ReplayBody {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description: 'Send again from this event of the application on',
  })
  @IfPresent()
  @IsInt({ message: 'fromEventId must be an event id (a positive integer)' })
  @Min(1, { message: 'fromEventId must be an event id (a positive integer)' })
  @Max(Number.MAX_SAFE_INTEGER, { message: 'fromEventId must be an event id (a positive integer)' })
  fromEventId?: number;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Send again from the first event created at or after this time (RFC 3339)',
  })
  @IfPresent()
  @IsString({ message: 'fromTime must be an RFC 3339 time' })
  fromTime?: string;
}
