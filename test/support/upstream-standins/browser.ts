/**
 * A browser at a stand-in provider: follows redirects (keeping cookies) until it is sent back
 * to `back` (this service); returns that URL.
 */
async function followTo(start: string, back: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = start;
  for (let hop = 0; hop < 10; hop += 1) {
    if (url.startsWith(back)) return new URL(url);
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1));
    }
    const location = res.headers.get('location');
    if (!location)
      throw new Error(`stand-in answered ${res.status} at ${url}: ${await res.text()}`);
    url = new URL(location, url).toString();
  }
  throw new Error('too many redirects at the stand-in');
}

/** Through the stand-in back to `back` (this service's callback): that URL's query. */
export async function followToCallback(
  start: string,
  back: string,
): Promise<Record<string, string>> {
  return Object.fromEntries((await followTo(start, back)).searchParams);
}

/**
 * Through the stand-in back to `back` (this service's origin): the path and query to request
 * from this service, with the browser's own cookies.
 */
export async function visitUpstream(start: string, back: string): Promise<string> {
  const target = await followTo(start, back);
  return target.pathname + target.search;
}
