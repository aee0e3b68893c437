import { isLoopbackHost } from '../../../common/http/loopback';
import type { UpstreamProviderSettings } from './upstream-provider';

/** The settings that hold an endpoint of the provider (docs/upstreams.md, "Kinds"). */
export const URL_SETTINGS = [
  'issuer',
  'authorizationUrl',
  'tokenUrl',
  'profileUrl',
  'emailsUrl',
  'openidUrl',
  'baseUrl',
] as const;
export type UrlSetting = (typeof URL_SETTINGS)[number];

/**
 * Why an endpoint URL may not be used, or null when it may: the client secret, codes and
 * tokens travel to these URLs, so only https: qualifies, except on a loopback host where
 * nothing crosses a network (tests, local development).
 */
export function endpointProblem(value: string): 'not_url' | 'not_http' | 'insecure' | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'not_url';
  }
  if (url.protocol === 'https:') return null;
  if (url.protocol !== 'http:') return 'not_http';
  return isLoopbackHost(url.hostname) ? null : 'insecure';
}

/** The first setting whose URL is plain http on a host other than loopback, if any. */
export function insecureSetting(settings: UpstreamProviderSettings): UrlSetting | null {
  for (const name of URL_SETTINGS) {
    const value = settings[name];
    if (value !== undefined && endpointProblem(value) === 'insecure') return name;
  }
  return null;
}
