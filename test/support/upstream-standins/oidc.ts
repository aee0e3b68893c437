import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// oidc-provider ships no types; this is the small part of its API the stand-in uses.
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

export interface OidcAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  preferred_username?: string;
  picture?: string;
}

export interface OidcStandIn {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who the next interaction signs in (what the provider's login page would have asked). */
  account: OidcAccount;
  /** How many requests its userinfo endpoint answered. */
  userinfoRequests: number;
  close(): Promise<void>;
}

export interface OidcStandInOptions {
  /**
   * oidc-provider's strict default (true): with scope `email profile` those claims go to the
   * userinfo endpoint only, the id_token carries `sub`. False puts them in the id_token too,
   * as Google and most providers do.
   */
  conformIdTokenClaims?: boolean;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closer(server: Server): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

/**
 * panva's oidc-provider on loopback: a real OpenID provider (discovery, JWKS, PKCE required,
 * signed id_tokens). Its login and consent finish at once as `account`.
 */
export async function startOidcStandIn(
  redirectUris: string[],
  options: OidcStandInOptions = {},
): Promise<OidcStandIn> {
  const moduleName = 'oidc-provider';
  const { default: Provider } = (await import(moduleName)) as { default: OidcProviderClass };
  const server = createServer();
  const issuer = await listen(server);
  const standIn: OidcStandIn = {
    issuer,
    clientId: 'idsvc-upstream-test',
    clientSecret: 'oidc-standin-secret-0123456789abcdef',
    account: { sub: 'oidc-user-1' },
    userinfoRequests: 0,
    close: closer(server),
  };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: standIn.clientId,
        client_secret: standIn.clientSecret,
        redirect_uris: redirectUris,
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['preferred_username', 'picture'],
    },
    findAccount: (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: () => ({ ...standIn.account, sub }),
    }),
    pkce: { required: () => true },
    conformIdTokenClaims: options.conformIdTokenClaims ?? false,
    features: { devInteractions: { enabled: false } },
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    cookies: { keys: ['standin-cookie-key'] },
  });
  const callback = provider.callback();
  server.on('request', (req, res) => {
    if (req.url?.startsWith('/me')) standIn.userinfoRequests += 1;
    if (!req.url?.startsWith('/interaction/')) {
      callback(req, res);
      return;
    }
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      const accountId = standIn.account.sub;
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
  return standIn;
}

/**
 * An impostor issuer: its discovery document claims its own issuer but points at `real`'s
 * endpoints, so the id_tokens a client gets carry `real`'s issuer (a wrong-issuer id_token).
 */
export async function startImpostorIssuer(real: OidcStandIn): Promise<{
  issuer: string;
  close(): Promise<void>;
}> {
  const server = createServer();
  const issuer = await listen(server);
  server.on('request', (req, res) => {
    void (async () => {
      const upstream = await fetch(`${real.issuer}/.well-known/openid-configuration`);
      const metadata = (await upstream.json()) as Record<string, unknown>;
      res.setHeader('content-type', 'application/json');
      // Without RFC 9207's iss in the callback, only the id_token's iss can tell.
      delete metadata.authorization_response_iss_parameter_supported;
      res.end(JSON.stringify({ ...metadata, issuer }));
    })();
  });
  return { issuer, close: closer(server) };
}
