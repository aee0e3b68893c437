/** RFC 3339 with offset (UTC, `Z`), or null for a time that has not happened. */
export function rfc3339(value: Date | null | undefined): string | null {
  return value ? value.toISOString() : null;
}
