/**
 * Whether a URL's host is this machine: `localhost`, 127.0.0.0/8 or `[::1]`. Takes
 * `URL.hostname`, which WHATWG URL parsing has already normalised (`127.1` and `0x7f.0.0.1` →
 * `127.0.0.1`, `[0:0::1]` → `[::1]`), so only these spellings remain. Plain http is accepted
 * on such a host for development: nothing crosses a network.
 */
export function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}
