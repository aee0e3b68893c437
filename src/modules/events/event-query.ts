import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, ValidateBy, type ValidationArguments } from 'class-validator';
import { IfPresent, PositiveIntParam } from '../../common/validation/dto-decorators';
import { EVENT_TYPES, type EventType } from './event-types';

/** docs/contract/events.md#get-events: limit default 50, maximum 200 (larger values are clamped, docs/events.md). */
export const DEFAULT_EVENT_LIMIT = 50;
export const MAX_EVENT_LIMIT = 200;

// RFC 3339 section 5.6 date-time: full date, "T", time with optional fraction, Z or ±hh:mm.
const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-]\d{2}:\d{2})$/;

/** Parses an RFC 3339 timestamp strictly; impossible dates (Feb 30, hour 24) are refused. */
export function parseRfc3339(value: string): Date | undefined {
  const m = RFC3339.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const offset = m[8].toUpperCase();
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  if (day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return undefined;
  if (offset !== 'Z' && (Number(offset.slice(1, 3)) > 23 || Number(offset.slice(4)) > 59)) {
    return undefined;
  }
  const date = new Date(value.toUpperCase());
  return Number.isNaN(date.getTime()) ? undefined : date;
}

// Event ids are bigint: up to 18 digits always fit one; longer values are refused, not rounded.
const EVENT_ID = /^\d{1,18}$/;

/** An event id parameter as digits; `after=0` means "from the first event", beforeId is ≥ 1. */
const EventId = (min: 0 | 1): PropertyDecorator =>
  ValidateBy({
    name: 'eventId',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && EVENT_ID.test(value) && Number(value) >= min,
      defaultMessage: ({ property }: ValidationArguments) =>
        `${property} must be an event id (${min === 0 ? 'a non-negative' : 'a positive'} integer)`,
    },
  });

/** A parameter that is refused when `when` holds for the whole query (the two cursors). */
const RefusedWhen = (
  when: (query: EventListQuery) => boolean,
  message: string,
): PropertyDecorator =>
  ValidateBy({
    name: 'cursorCombination',
    validator: {
      validate: (_value: unknown, args?: ValidationArguments) =>
        !when(args!.object as EventListQuery),
      defaultMessage: () => message,
    },
  });

/**
 * The query of GET /events (spec 4.1, docs/events.md), also the console's events list. The two
 * cursors: `before` (+ `beforeId`) pages back, `after` syncs forward; never both. Malformed,
 * repeated or unknown parameters are 400 invalid_query (docs/errors.md).
 */
export class EventListQuery {
  @PositiveIntParam({
    max: MAX_EVENT_LIMIT,
    clamp: true,
    default: DEFAULT_EVENT_LIMIT,
    description: `Events per page; values above ${MAX_EVENT_LIMIT} are clamped to ${MAX_EVENT_LIMIT}`,
  })
  limit: number = DEFAULT_EVENT_LIMIT;

  /** Validated RFC 3339 text, given to PostgreSQL as is so microseconds are not lost. */
  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    description: 'Newest-first paging: only events created before this time (RFC 3339)',
  })
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' ? value.toUpperCase() : value,
  )
  @IfPresent()
  @ValidateBy({
    name: 'rfc3339',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && parseRfc3339(value) !== undefined,
      defaultMessage: () => 'before must be an RFC 3339 timestamp',
    },
  })
  before?: string;

  /** With `before`: the `(createdAt, id)` cursor of the last event seen, as digits. */
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    description:
      'With before only: the id of the last event seen; returns events with (createdAt, id) < (before, beforeId)',
  })
  @IfPresent()
  @EventId(1)
  @RefusedWhen(
    (query) => query.before === undefined,
    'beforeId needs before: pass the createdAt and the id of the same event',
  )
  beforeId?: string;

  /** Forward sync: events with a larger id, ascending (docs/events.md). Digits, may be 0. */
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    description:
      'Forward sync: events with a larger id, in ascending id order, never past an id that a smaller one could still precede. Not with before/beforeId',
  })
  @IfPresent()
  @EventId(0)
  @RefusedWhen(
    (query) => query.before !== undefined,
    'after cannot be combined with before or beforeId',
  )
  after?: string;

  @ApiPropertyOptional({ enum: EVENT_TYPES })
  @IfPresent()
  @IsIn(EVENT_TYPES, { message: `eventType must be one of ${EVENT_TYPES.join(', ')}` })
  eventType?: EventType;
}
