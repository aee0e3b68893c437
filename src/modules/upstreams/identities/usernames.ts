/** The local username rule (users.service.ts): 3-64 of [A-Za-z0-9_.-], starting alphanumeric. */
const ALLOWED = /[^A-Za-z0-9_.-]+/g;
const MAX = 64;

/**
 * A local username derived from the upstream one (docs/upstreams.md): characters outside the
 * local rule dropped, a leading non-alphanumeric stripped, padded when too short. Falls back to
 * the provider id when the upstream gave nothing usable (WeChat nicknames are often all CJK).
 */
export function baseUsername(upstream: string | null, providerId: string): string {
  const cleaned = (upstream ?? '')
    .normalize('NFKD')
    .replace(ALLOWED, '')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, MAX);
  if (cleaned.length >= 3) return cleaned;
  const fallback = `${cleaned}${cleaned ? '-' : ''}${providerId.replace(ALLOWED, '')}-user`;
  return fallback.replace(/^[^A-Za-z0-9]+/, '').slice(0, MAX) || 'user';
}

/** The n-th candidate (n ≥ 1) when the base is taken: base-2, base-3, ... kept within 64. */
export function candidateUsername(base: string, n: number): string {
  if (n === 0) return base;
  const suffix = `-${n + 1}`;
  return base.slice(0, MAX - suffix.length) + suffix;
}
