import { isLoopbackHost } from '../../common/http/loopback';

/**
 * Whether a URL shown to others (an application's `homeUrl` and `logo`: the consent page, the
 * console, `GET /api/v1/app/me`) may be stored: `https://host…`, or `http://` on a loopback host
 * (localhost, 127.0.0.0/8, [::1]) for development. Never `javascript:`, `data:` or any other
 * scheme, and no whitespace, control character or `\` (the URL parser would drop or rewrite
 * them, so the stored string would not be the URL that was checked).
 */
export function isAllowedWebUrl(value: string): boolean {
  // eslint-disable-next-line no-control-regex
  if (/[\s\x00-\x1f\x7f\\]/.test(value)) return false;
  // The authority written out: the parser would read `https:example.org` as a host.
  if (!/^https?:\/\/[^/?#]/i.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && isLoopbackHost(url.hostname);
}
