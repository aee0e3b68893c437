import { FetchBrowser } from './fetch-browser';
import { freePort } from './redis-server';
import { REDIRECT_URI } from './oauth';
import { createTestApp, type TestApp } from './test-app';

export type OpenIdClient = typeof import('openid-client', {
  with: { 'resolution-mode': 'import' },
});
export type ClientConfig = InstanceType<OpenIdClient['Configuration']>;

/**
 * The app listening on a loopback port that is also its PUBLIC_BASE_URL, so that discovery's
 * issuer matches the URL it is fetched from (OIDC Discovery 1.0 section 4.3).
 */
export async function listeningApp(
  env: Record<string, string> = {},
): Promise<{ t: TestApp; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ port, env: { ...env, PUBLIC_BASE_URL: base } });
  return { t, base };
}

/**
 * The client metadata that tells openid-client how far the service's (test) clock is from the
 * wall clock, which the library signs its client assertions with.
 */
export function clockSkewOf(oc: OpenIdClient, t: TestApp): Record<symbol, number> {
  return { [oc.clockSkew]: Math.round((t.clock.now().getTime() - Date.now()) / 1000) };
}

/**
 * One openid flow: authorization URL with PKCE, state and nonce, login and consent, exchange
 * (with `exchange`'s options: a DPoP handle makes it a DPoP token request, RFC 9449 section 5).
 */
export async function openidFlow(
  oc: OpenIdClient,
  config: ClientConfig,
  base: string,
  username: string,
  scope = 'openid profile email',
  exchange: Parameters<OpenIdClient['authorizationCodeGrant']>[4] = {},
) {
  const verifier = oc.randomPKCECodeVerifier();
  const state = oc.randomState();
  const nonce = oc.randomNonce();
  const url = oc.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope,
    code_challenge: await oc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  const callback = await new FetchBrowser(base).authorize(url, username);
  // The library validates the id_token: iss, aud, exp, iat, nonce, at_hash, and its signature
  // against the JWKS only when the Configuration has enableNonRepudiationChecks (OIDC Core
  // 3.1.3.7 lets a client trust TLS instead; the e2e configurations turn it on).
  const tokens = await oc.authorizationCodeGrant(
    config,
    callback,
    {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    },
    undefined,
    exchange,
  );
  return { tokens, nonce };
}
