import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Grant {
  addOIDCScope(scope: string): void;
  save(): Promise<string>;
}
interface OidcProviderInstance {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<{ params: Record<string, unknown> }>;
  interactionFinished(
    req: IncomingMessage,
    res: ServerResponse,
    result: object,
    options: object,
  ): Promise<void>;
  Grant: new (init: { accountId: string; clientId: string }) => Grant;
}
type OidcProviderClass = new (issuer: string, configuration: object) => OidcProviderInstance;

/** The account the upstream signs in (what its login page would have asked for). */
export interface UpstreamAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  preferred_username?: string;
}

export interface OidcUpstream {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who the next interaction signs in as. */
  account: UpstreamAccount;
  close(): Promise<void>;
}

/**
 * panva's oidc-provider on loopback as a real upstream OpenID provider. Its interaction (login
 * and consent) finishes at once as `account`, which stands in for a person at its pages.
 */
export async function startOidcUpstream(redirectUris: string[]): Promise<OidcUpstream> {
  // oidc-provider ships no types; this is the small part of its API the stand-in uses.
  const moduleName = 'oidc-provider';
  const { default: Provider } = (await import(moduleName)) as { default: OidcProviderClass };
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const upstream: OidcUpstream = {
    issuer,
    clientId: 'idsvc-test',
    clientSecret: 'upstream-client-secret-0123456789abcdef',
    account: { sub: 'upstream-user-1' },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: upstream.clientId,
        client_secret: upstream.clientSecret,
        redirect_uris: redirectUris,
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['preferred_username'],
    },
    findAccount: (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: () => ({ ...upstream.account, sub }),
    }),
    pkce: { required: () => true },
    // Profile claims in the id_token too, as Google and most providers send them.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    cookies: { keys: ['test-cookie-key'] },
  });
  const callback = provider.callback();
  server.on('request', (req, res) => {
    if (!req.url?.startsWith('/interaction/')) {
      callback(req, res);
      return;
    }
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      const accountId = upstream.account.sub;
      const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    })().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
  return upstream;
}

/**
 * A browser at the upstream: follows its redirects (keeping its cookies) until it sends the
 * browser back to `back` (this service); returns that URL's path and query.
 */
export async function visitUpstream(start: string, back: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = start;
  for (let hop = 0; hop < 10; hop += 1) {
    if (url.startsWith(back)) {
      const target = new URL(url);
      return target.pathname + target.search;
    }
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
      throw new Error(`upstream answered ${res.status} at ${url}: ${await res.text()}`);
    url = new URL(location, url).toString();
  }
  throw new Error('too many redirects at the upstream');
}
