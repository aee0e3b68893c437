/**
 * A browser at a stand-in provider: follows redirects (keeping cookies) until it is sent back
 * to `back` (this service's callback); returns that URL's query as a plain object.
 */
export async function followToCallback(
  start: string,
  back: string,
): Promise<Record<string, string>> {
  const jar = new Map<string, string>();
  let url = start;
  for (let hop = 0; hop < 10; hop += 1) {
    if (url.startsWith(back)) return Object.fromEntries(new URL(url).searchParams);
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
