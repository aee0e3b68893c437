import { UPSTREAM_PROVIDERS } from '../authorization-request';
import { param, type Params } from './params';

/**
 * upstream_providers (spec section 4.2): a comma-separated restriction of the upstream login
 * methods the page offers. Unknown names are ignored; absent means every provider.
 */
export function readUpstreamProviders(params: Params): string[] {
  const raw = param(params, 'upstream_providers');
  if (raw === undefined || raw.trim() === '') return [...UPSTREAM_PROVIDERS];
  const wanted = raw.split(',').map((name) => name.trim().toLowerCase());
  return UPSTREAM_PROVIDERS.filter((name) => wanted.includes(name));
}
