/**
 * How deep a request body may nest objects and arrays. No DTO nests more than a few levels (a
 * passkey response is the deepest, at four); a 100 kB JSON body could nest fifty thousand, which
 * class-transformer, class-validator and every recursive reader after them would walk until the
 * stack ran out (a 500). Refused as invalid_body before any of them runs.
 */
export const MAX_NESTING_DEPTH = 16;

/** Whether `parsed` nests objects or arrays more than `limit` levels deep. Walked with a stack. */
export function nestedDeeperThan(parsed: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[parsed, 0]];
  while (pending.length > 0) {
    const [value, depth] = pending.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      pending.push([child, depth + 1]);
    }
  }
  return false;
}
