/** Scopes of the application API (docs/contract/api-keys.md#scopes). */
export const API_SCOPES = [
  'user:read',
  'user:write',
  'group:write',
  'stats:read',
  'relation:revoke',
] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export function isApiScope(value: string): value is ApiScope {
  return (API_SCOPES as readonly string[]).includes(value);
}

/**
 * A requirement is satisfied by any one scope of its set; a request may carry several
 * requirements (PATCH with both fields needs user:write and group:write).
 * Returns the first requirement the granted scopes fail, or undefined when all are met.
 */
export function firstUnmetRequirement(
  granted: readonly string[],
  requirements: readonly (readonly ApiScope[])[],
): readonly ApiScope[] | undefined {
  return requirements.find((anyOf) => !anyOf.some((scope) => granted.includes(scope)));
}
