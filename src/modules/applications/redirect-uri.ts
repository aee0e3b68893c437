import type { ClientAuthMethod } from './application.entity';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Schemes that are never an app's redirect: they run script (javascript, vbscript), carry or
 * reach local content (data, blob, about, file), or are the web's own network schemes that no
 * native app claims (ftp, ws, wss: WHATWG URL "special" schemes besides http/https). Every other
 * scheme is an app's private-use scheme (RFC 8252 section 7.1).
 */
const REFUSED_SCHEMES = new Set([
  'javascript:',
  'vbscript:',
  'data:',
  'blob:',
  'about:',
  'file:',
  'ftp:',
  'ws:',
  'wss:',
]);

/**
 * Whether a redirect URI may be registered (RFC 6749 section 3.1.2, RFC 8252, RFC 9700), the one
 * rule of every surface that registers one (CLI, console API, application service):
 * - absolute, no fragment (RFC 6749 section 3.1.2), no whitespace, control character or `\`
 *   (none is a URI character, RFC 3986 section 2; the URL parser would drop or rewrite them);
 * - `https://host…` anywhere; `http://host…` only on a loopback host (RFC 8252 sections 7.3,
 *   8.3), the authority written out (the parser would read `https:///cb` as host `cb`);
 * - otherwise a private-use scheme of a native app (RFC 8252 section 7.1: `com.example.app:/cb`,
 *   `splitdns://callback`) with something after the colon, unless in REFUSED_SCHEMES.
 */
export function isRegistrableRedirectUri(value: string): boolean {
  // The stored string is the one compared at /authorize, so it must mean what the parser reads.
  // eslint-disable-next-line no-control-regex
  if (/[\s\x00-\x1f\x7f\\#]/.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol === 'https:' || url.protocol === 'http:') {
    if (!/^https?:\/\/[^/?]/i.test(value)) return false;
    return url.protocol === 'https:' || LOOPBACK_HOSTS.has(url.hostname);
  }
  if (REFUSED_SCHEMES.has(url.protocol)) return false;
  return url.host !== '' || url.pathname !== '';
}

// `http://` + a loopback IP literal + optional port + the rest (path and query), as registered.
const LOOPBACK_IP_REDIRECT = /^http:\/\/(127\.0\.0\.1|\[::1\])(?::(\d*))?([/?].*)?$/;

/** The host and the rest of a loopback IP redirect, or null (port checked: 1 to 65535). */
function loopbackParts(uri: string): { host: string; rest: string } | null {
  const match = LOOPBACK_IP_REDIRECT.exec(uri);
  if (!match) return null;
  const [, host, port, rest = ''] = match;
  if (port !== undefined && !(/^[1-9]\d{0,4}$/.test(port) && Number(port) <= 65535)) return null;
  return { host, rest };
}

/**
 * Whether a requested redirect_uri matches a registered one: the exact string (RFC 9700 section
 * 4.1.3), except that for public (`none`) clients a registered loopback IP redirect matches a
 * request that differs only in the port, since a native app listens on whatever port the OS gives
 * it (RFC 8252 section 7.3). Not for `localhost` (RFC 8252 section 8.3: it may resolve off the
 * machine) and not for confidential clients, which are not native apps.
 */
export function redirectUriMatches(
  registered: string,
  requested: string,
  authMethod: ClientAuthMethod,
): boolean {
  if (registered === requested) return true;
  if (authMethod !== 'none') return false;
  const a = loopbackParts(registered);
  const b = loopbackParts(requested);
  return a !== null && b !== null && a.host === b.host && a.rest === b.rest;
}
