/** An authorization request after every check of the /oauth2/authorize pipeline has passed. */
export interface AuthorizationRequest {
  applicationId: number;
  redirectUri: string;
  /** Canonical scope text (see scopes.ts). */
  scope: string;
  state: string | null;
  /** S256 challenge, or null for a secret client that sent none. */
  codeChallenge: string | null;
  prompt: 'none' | null;
  /** Upstream providers the login page may offer (upstream_providers, spec section 4.2). */
  upstreamProviders: string[];
}

/** The lowercase identifiers of the upstream identity providers (spec section 4.2). */
export const UPSTREAM_PROVIDERS = ['forum', 'github', 'google', 'qq', 'wechat'] as const;
