import {
  invalidQuery,
  positiveIntParam,
  RawQuery,
  singleValue,
} from '../../common/http/query-params';
import { EVENT_TYPES, EventType } from './event-types';

/** Spec section 8: limit default 50, maximum 200 (larger values are clamped, docs/events.md). */
export const DEFAULT_EVENT_LIMIT = 50;
export const MAX_EVENT_LIMIT = 200;

export interface EventListQuery {
  limit: number;
  /** Validated RFC 3339 text, given to PostgreSQL as is so microseconds are not lost. */
  before?: string;
  /** With `before`: the `(createdAt, id)` cursor of the last event seen, as digits. */
  beforeId?: string;
  /** Forward sync: events with a larger id, ascending (docs/events.md). Digits, may be 0. */
  after?: string;
  eventType?: EventType;
}

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

const KNOWN = new Set(['limit', 'before', 'beforeId', 'after', 'eventType']);

// Event ids are bigint: up to 18 digits always fit one; longer values are refused, not rounded.
const EVENT_ID = /^\d{1,18}$/;

/** An event id parameter as digits; `after=0` means "from the first event", beforeId is ≥ 1. */
function eventIdParam(query: RawQuery, name: string, min: 0 | 1): string | undefined {
  const raw = singleValue(query, name);
  if (raw === undefined) return undefined;
  if (!EVENT_ID.test(raw) || Number(raw) < min) {
    throw invalidQuery(
      `${name} must be an event id (${min === 0 ? 'a non-negative' : 'a positive'} integer)`,
    );
  }
  return raw;
}

/** The two cursors: `before` (+ `beforeId`) pages back, `after` syncs forward; never both. */
function parseCursor(query: RawQuery): Pick<EventListQuery, 'before' | 'beforeId' | 'after'> {
  const before = singleValue(query, 'before');
  if (before !== undefined && !parseRfc3339(before)) {
    throw invalidQuery('before must be an RFC 3339 timestamp');
  }
  const beforeId = eventIdParam(query, 'beforeId', 1);
  const after = eventIdParam(query, 'after', 0);
  if (beforeId !== undefined && before === undefined) {
    throw invalidQuery('beforeId needs before: pass the createdAt and the id of the same event');
  }
  if (after !== undefined && before !== undefined) {
    throw invalidQuery('after cannot be combined with before or beforeId');
  }
  if (after !== undefined) return { after };
  if (before === undefined) return {};
  return beforeId === undefined
    ? { before: before.toUpperCase() }
    : { before: before.toUpperCase(), beforeId };
}

/** Parses GET /events query parameters (spec 4.1); malformed values are 400 invalid_query. */
export function parseEventListQuery(query: RawQuery): EventListQuery {
  const unknown = Object.keys(query).filter((name) => !KNOWN.has(name));
  if (unknown.length > 0) throw invalidQuery(`Unknown query parameter: ${unknown.join(', ')}`);
  const result: EventListQuery = {
    limit: positiveIntParam(query, 'limit', DEFAULT_EVENT_LIMIT, MAX_EVENT_LIMIT),
    ...parseCursor(query),
  };
  const eventType = singleValue(query, 'eventType');
  if (eventType !== undefined) {
    if (!(EVENT_TYPES as readonly string[]).includes(eventType)) {
      throw invalidQuery(`eventType must be one of ${EVENT_TYPES.join(', ')}`);
    }
    result.eventType = eventType as EventType;
  }
  return result;
}
