import { createHash } from 'node:crypto';
import {
  StartParams,
  UpstreamError,
  UpstreamProfile,
  UpstreamProvider,
} from '../providers/upstream-provider';
import { isLoopbackHost } from '../../../common/http/loopback';
import { endpointProblem } from '../providers/endpoint-urls';
import { checkCallbackError } from './authorization-code';
import { stringField, UPSTREAM_TIMEOUT_MS } from './http';
import type { KindClient } from './kind-client';

// typescript-eslint does not follow the resolution-mode attribute; tsc does and checks this.
// eslint-disable-next-line @typescript-eslint/no-unsafe-assignment
type OpenIdClient = typeof import('openid-client', { with: { 'resolution-mode': 'import' } });
type Configuration = OpenIdClient['Configuration']['prototype'];

export const GOOGLE_ISSUER = 'https://accounts.google.com';
const DISCOVERY_TTL_MS = 10 * 60 * 1000;
/** The profile claims read from the id_token, or from userinfo when the id_token lacks them. */
const PROFILE_CLAIMS = ['email', 'preferred_username', 'name', 'picture'] as const;
/** Missing from the id_token, these send us to userinfo (`name` is only a username fallback). */
const USERINFO_TRIGGERS = ['email', 'preferred_username', 'picture'] as const;

/**
 * openid-client is ESM-only; tsconfig's module node16 keeps this import() an import() in the
 * CommonJS build (it is not rewritten to require()).
 */
let library: Promise<OpenIdClient> | undefined;
function openidClient(): Promise<OpenIdClient> {
  library ??= import('openid-client');
  return library;
}

/** The discovered endpoints the service calls or sends a browser to. */
const DISCOVERED_ENDPOINTS = [
  'authorization_endpoint',
  'token_endpoint',
  'userinfo_endpoint',
  'jwks_uri',
] as const;

/**
 * Every discovered endpoint must be https (or loopback), as the configured URLs must be
 * (providers/endpoint-urls.ts). For an https issuer openid-client already refuses plain-http
 * endpoints when it calls them (oauth4webapi's HTTPS-only check); a loopback issuer runs with
 * allowInsecureRequests, so without this check its document could send codes to any http host.
 */
function checkDiscoveredEndpoints(providerId: string, metadata: Record<string, unknown>): void {
  for (const name of DISCOVERED_ENDPOINTS) {
    const value = metadata[name];
    if (typeof value === 'string' && endpointProblem(value) !== null) {
      throw new UpstreamError(
        'unavailable',
        `provider ${providerId}: the discovery document's ${name} is not an https URL (http:// only on loopback)`,
      );
    }
  }
}

/**
 * OpenID Connect (and `google`, which is this with Google's issuer by default): discovery,
 * authorization code with PKCE S256 and nonce, id_token validated by openid-client (signature
 * against the issuer's JWKS, iss, aud, exp, nonce).
 */
export class OidcKind implements KindClient {
  private readonly configurations = new Map<string, { at: number; config: Configuration }>();

  constructor(private readonly now: () => number = Date.now) {}

  async authorizationUrl(provider: UpstreamProvider, params: StartParams): Promise<string> {
    const client = await openidClient();
    const config = await this.configuration(provider);
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: params.redirectUri,
      response_type: 'code',
      scope: provider.settings.scope ?? 'openid email profile',
      state: params.state,
      nonce: params.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(params.codeVerifier),
      code_challenge_method: 'S256',
    });
    return url.href;
  }

  async complete(
    provider: UpstreamProvider,
    callbackQuery: Record<string, string>,
    params: StartParams,
  ): Promise<UpstreamProfile> {
    checkCallbackError(callbackQuery);
    const client = await openidClient();
    const config = await this.configuration(provider);
    const current = new URL(params.redirectUri);
    for (const [name, value] of Object.entries(callbackQuery)) {
      current.searchParams.set(name, value);
    }
    let idToken: Record<string, unknown> | undefined;
    let accessToken: string;
    try {
      const tokens = await client.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: params.codeVerifier,
        expectedNonce: params.nonce,
        expectedState: params.state,
        idTokenExpected: true,
      });
      idToken = tokens.claims();
      accessToken = tokens.access_token;
    } catch (error) {
      throw asUpstreamError(error);
    }
    if (!idToken) throw new UpstreamError('invalid_response', 'no id_token in the token response');
    const subject = stringField(idToken.sub);
    if (!subject) throw new UpstreamError('invalid_response', 'the id_token has no sub');
    const claims = await this.withUserinfo(config, idToken, subject, accessToken);
    const email = stringField(claims.email);
    return {
      subject,
      username: stringField(claims.preferred_username) ?? stringField(claims.name),
      email,
      emailVerified: email !== null && claims.email_verified === true,
      avatar: stringField(claims.picture),
      providerData: { iss: claims.iss },
    };
  }

  /**
   * Providers may keep profile claims out of the id_token (OpenID Connect Core 5.4: with
   * `scope=profile email` they belong in the userinfo response unless requested for the
   * id_token; oidc-provider's default does this). When the id_token lacks any of them and the
   * provider has a userinfo endpoint, ask it with the access token; openid-client checks that
   * its `sub` is the id_token's. The id_token's claims win; email_verified always comes from
   * the same source as the email it qualifies.
   */
  private async withUserinfo(
    config: Configuration,
    idToken: Record<string, unknown>,
    subject: string,
    accessToken: string,
  ): Promise<Record<string, unknown>> {
    const complete = USERINFO_TRIGGERS.every((name) => stringField(idToken[name]) !== null);
    if (complete || !config.serverMetadata().userinfo_endpoint) return idToken;
    let userinfo: Record<string, unknown>;
    try {
      const client = await openidClient();
      userinfo = { ...(await client.fetchUserInfo(config, accessToken, subject)) };
    } catch (error) {
      throw asUpstreamError(error);
    }
    const merged: Record<string, unknown> = { ...idToken };
    for (const name of PROFILE_CLAIMS) {
      if (stringField(merged[name]) === null && stringField(userinfo[name]) !== null) {
        merged[name] = userinfo[name];
        if (name === 'email') merged.email_verified = userinfo.email_verified;
      }
    }
    return merged;
  }

  private async configuration(provider: UpstreamProvider): Promise<Configuration> {
    const issuer = provider.settings.issuer ?? (provider.kind === 'google' ? GOOGLE_ISSUER : '');
    // The secret is part of the key (in memory only) so a rotated secret takes effect at once.
    const key = createHash('sha256')
      .update(JSON.stringify([provider.id, issuer, provider.clientId, provider.clientSecret]))
      .digest('hex');
    const cached = this.configurations.get(key);
    if (cached && this.now() - cached.at < DISCOVERY_TTL_MS) return cached.config;
    let issuerUrl: URL;
    try {
      issuerUrl = new URL(issuer);
    } catch {
      throw new UpstreamError('unavailable', `provider ${provider.id} has no valid issuer`);
    }
    const client = await openidClient();
    let config: Configuration;
    try {
      config = await client.discovery(
        issuerUrl,
        provider.clientId,
        provider.clientSecret,
        client.ClientSecretPost(provider.clientSecret),
        {
          timeout: UPSTREAM_TIMEOUT_MS / 1000,
          // http:// issuers on loopback only (tests, local development).
          execute: isLoopbackHost(issuerUrl.hostname) ? [client.allowInsecureRequests] : [],
        },
      );
    } catch (error) {
      throw asUpstreamError(error, 'unavailable');
    }
    checkDiscoveredEndpoints(provider.id, { ...config.serverMetadata() });
    config.timeout = UPSTREAM_TIMEOUT_MS / 1000;
    this.configurations.set(key, { at: this.now(), config });
    return config;
  }
}

/**
 * openid-client's failures: an unreachable or timed-out provider is `unavailable`; state
 * mismatches are `invalid_state`; everything else it rejects (bad issuer, nonce, signature,
 * error responses from the token endpoint) is `invalid_response`.
 */
function asUpstreamError(
  error: unknown,
  fallback: 'unavailable' | 'invalid_response' = 'invalid_response',
): UpstreamError {
  if (error instanceof UpstreamError) return error;
  const err = error as { name?: string; code?: string; message?: string; cause?: unknown };
  if (
    err?.name === 'TimeoutError' ||
    err?.name === 'AbortError' ||
    err?.message === 'fetch failed'
  ) {
    return new UpstreamError('unavailable', 'the provider could not be reached');
  }
  // openid-client wraps oauth4webapi's error, whose message names the claim or parameter.
  const inner = err?.cause instanceof Error ? err.cause.message : '';
  if (/unexpected "state"/i.test(inner)) {
    return new UpstreamError('invalid_state', 'the callback state does not match');
  }
  const body = err?.cause as { error?: unknown } | undefined;
  const detail = (
    inner ||
    (typeof body?.error === 'string' ? `token endpoint error ${body.error}` : '') ||
    (typeof err?.message === 'string' ? err.message : 'rejected')
  ).slice(0, 200);
  return new UpstreamError(fallback, `the provider's answer was rejected: ${detail}`);
}
