import { hiddenInput, PASSWORD, REDIRECT_URI } from './oauth';

/** A browser made of fetch: keeps cookies, follows nothing by itself. */
export class FetchBrowser {
  private readonly cookies = new Map<string, string>();
  constructor(private readonly base: string) {}

  async request(path: string, form?: Record<string, string>): Promise<Response> {
    const res = await fetch(new URL(path, this.base), {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const header of res.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const eq = pair.indexOf('=');
      this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    return res;
  }

  /** Submits the login and consent forms the way a user would, until the client's callback. */
  async authorize(authorizationUrl: URL, username: string): Promise<URL> {
    let res = await this.request(authorizationUrl.pathname + authorizationUrl.search);
    for (let hops = 0; hops < 10; hops++) {
      const location = res.headers.get('location');
      if (location?.startsWith(REDIRECT_URI)) return new URL(location);
      if (location) {
        res = await this.request(location);
        continue;
      }
      const page = await res.text();
      const fields = {
        request: hiddenInput(page, 'request'),
        csrf_token: hiddenInput(page, 'csrf_token'),
      };
      res = page.includes('name="password"')
        ? await this.request('/oauth2/login', { ...fields, username, password: PASSWORD })
        : await this.request('/oauth2/consent', { ...fields, decision: 'approve' });
    }
    throw new Error('the flow did not reach the redirect_uri');
  }
}
