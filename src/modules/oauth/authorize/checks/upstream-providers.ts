import {
  PASSWORD_METHOD,
  type UpstreamProvider,
} from '../../../upstreams/providers/upstream-provider';
import { type Params } from '../../../../common/http/params';
import { param } from '../../protocol/params';

const MAX_NAMES = 32;
const MAX_NAME_LENGTH = 64;

/**
 * upstream_providers (docs/contract/oauth.md#authorization-request): a comma-separated restriction of the sign-in methods
 * the page offers, kept as given (lower-cased, bounded); null when absent, which offers every
 * method. Names are matched against the configured providers when the page is shown, so an
 * unknown name is simply never offered.
 */
export function readUpstreamProviders(params: Params): string[] | null {
  const raw = param(params, 'upstream_providers');
  if (raw === undefined || raw.trim() === '') return null;
  const names = raw
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '' && name.length <= MAX_NAME_LENGTH);
  return [...new Set(names)].slice(0, MAX_NAMES);
}

/**
 * A list that offers at least one provider shows the password form only when it also names
 * PASSWORD_METHOD; a list that offers no provider keeps the password form.
 */
export interface OfferedSignIn {
  password: boolean;
  providers: UpstreamProvider[];
}

/** What a request may sign in with: the enabled providers it allows, and the password form. */
export function offeredSignIn(
  requested: string[] | null | undefined,
  enabled: UpstreamProvider[],
): OfferedSignIn {
  // Requests sealed before this change carry the old fixed list: treated as "no restriction".
  if (!requested) return { password: true, providers: enabled.filter(notPassword) };
  const providers = enabled.filter((provider) => allowsProvider(requested, provider));
  // The contract's upstream_providers restricts the *upstream* methods: existing integrations send
  // it (e.g. `github`) to a service where that provider may not be configured, and must still
  // get the password form rather than an empty page. Only a list that leaves a provider to sign
  // in with can leave the password form out.
  return {
    password: requested.includes(PASSWORD_METHOD) || providers.length === 0,
    providers,
  };
}

/** Whether the request allows this provider (others cannot complete it). */
export function allowsProvider(
  requested: string[] | null | undefined,
  provider: UpstreamProvider,
): boolean {
  const id = provider.id.toLowerCase();
  return provider.enabled && notPassword(provider) && (!requested || requested.includes(id));
}

/** A provider configured under the reserved id would be mistaken for the password form. */
function notPassword(provider: UpstreamProvider): boolean {
  return provider.id.toLowerCase() !== PASSWORD_METHOD;
}
