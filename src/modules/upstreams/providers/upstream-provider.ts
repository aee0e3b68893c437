/**
 * The interface between upstream provider configuration and the sign-in flow.
 * A kind is a protocol client; a provider is one configured instance of a kind.
 */
/**
 * The name the password form goes by in an authorization request's upstream_providers
 * (docs/upstreams.md); no provider may be configured under it.
 */
export const PASSWORD_METHOD = 'password';

export const UPSTREAM_KINDS = [
  'oidc',
  'google',
  'oauth2',
  'github',
  'qq',
  'wechat',
  'discourse',
] as const;
export type UpstreamKind = (typeof UPSTREAM_KINDS)[number];

export function isUpstreamKind(value: unknown): value is UpstreamKind {
  return typeof value === 'string' && (UPSTREAM_KINDS as readonly string[]).includes(value);
}

/** Which profile fields hold what, for the generic `oauth2` kind (dotted JSON paths). */
export interface ProfileFieldPaths {
  subject: string;
  username?: string;
  email?: string;
  emailVerified?: string;
  avatar?: string;
}

/** Kind settings; which ones a kind uses is documented in docs/upstreams.md. */
export interface UpstreamProviderSettings {
  /** oidc/google: the issuer whose discovery document is read. */
  issuer?: string;
  /** oauth2/github/qq/wechat: endpoint overrides (defaults are the real provider's). */
  authorizationUrl?: string;
  tokenUrl?: string;
  profileUrl?: string;
  /** github: the e-mail list; qq: the /oauth2.0/me URL. */
  emailsUrl?: string;
  openidUrl?: string;
  /** discourse: the forum's base URL (…/session/sso_provider is appended). */
  baseUrl?: string;
  scope?: string;
  /** oauth2: where the profile fields are. */
  profileFields?: ProfileFieldPaths;
}

/** A configured provider as the flow sees it (secret decrypted, never logged). */
export interface UpstreamProvider {
  id: string;
  displayName: string;
  kind: UpstreamKind;
  enabled: boolean;
  clientId: string;
  /** Decrypted client secret (discourse: the DiscourseConnect shared secret). Never log it. */
  clientSecret: string;
  settings: UpstreamProviderSettings;
}

export interface StartParams {
  state: string;
  nonce: string;
  codeVerifier: string;
  redirectUri: string;
}

export interface UpstreamProfile {
  subject: string;
  username: string | null;
  email: string | null;
  emailVerified: boolean;
  avatar: string | null;
  /** non-secret profile fields, e.g. WeChat unionid */
  providerData: Record<string, unknown>;
}

export type UpstreamErrorReason = 'denied' | 'invalid_response' | 'unavailable' | 'invalid_state';

export class UpstreamError extends Error {
  constructor(
    readonly reason: UpstreamErrorReason,
    message: string,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}
