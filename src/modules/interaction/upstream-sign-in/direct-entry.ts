import { type Params } from '../../../common/http/params';

/**
 * The authorization request named by direct entry's `redirect` (docs/upstreams.md), as query
 * parameters; null unless it is exactly this service's /oauth2/authorize (same origin, same
 * path), so the route can never send a browser anywhere else.
 */
export function authorizeQueryOf(redirect: unknown, publicBaseUrl: string): Params | null {
  if (typeof redirect !== 'string' || redirect === '' || redirect.length > 8000) return null;
  const authorize = new URL('/oauth2/authorize', publicBaseUrl);
  let url: URL;
  try {
    url = new URL(redirect, authorize);
  } catch {
    return null;
  }
  if (url.origin !== authorize.origin || url.pathname !== authorize.pathname) return null;
  if (url.username !== '' || url.password !== '') return null;
  const params: Record<string, string | string[]> = {};
  for (const [name, value] of url.searchParams) {
    const seen = params[name];
    // A repeated parameter stays visible as such: the authorize steps refuse it.
    params[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return params;
}
