/** Event types this service records (the list: docs/contract/events.md#event-types). */
export const EVENT_TYPES = [
  'authorization_granted',
  'authorization_revoked',
  'code_issued',
  'token_issued',
  'token_refreshed',
  'token_revoked',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
