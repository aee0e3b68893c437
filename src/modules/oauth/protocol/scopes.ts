/**
 * Scopes a client may request at /oauth2/authorize (docs/contract/oauth.md#scopes; see
 * docs/oauth.md). `read` is the one integrations of the earlier service use and covers both user endpoints.
 * `openid` makes the request an OpenID Connect one (OIDC Core 3.1.2.1): an id_token at the token
 * endpoint and the standard claims at userinfo (docs/oidc.md). Canonical order: this list's.
 */
export const OAUTH_SCOPES = ['openid', 'read', 'profile', 'email'] as const;
export type OAuthScope = (typeof OAUTH_SCOPES)[number];

export const SCOPE_DESCRIPTIONS: Record<OAuthScope, string> = {
  openid: 'Sign you in with your account identifier',
  read: 'Read your profile (username, nickname, avatar, email, groups) and your email addresses',
  profile: 'Read your profile (username, nickname, avatar, email, groups)',
  email: 'Read the list of your email addresses',
};

/** Which scopes open which endpoint (OIDC Core 5.3: an `openid` token may call userinfo). */
export const PROFILE_SCOPES: readonly OAuthScope[] = ['read', 'profile'];
export const USERINFO_SCOPES: readonly OAuthScope[] = ['openid', ...PROFILE_SCOPES];
export const EMAILS_SCOPES: readonly OAuthScope[] = ['read', 'email'];

/**
 * The scope granted when an authorization request names no scope this service defines, the
 * parameter absent included (RFC 6749 section 3.3: a pre-defined default; docs/oauth.md, "Scopes").
 */
export const DEFAULT_SCOPE: OAuthScope = 'read';

/**
 * The scopes of a scope parameter (RFC 6749 section 3.3: space-delimited, order irrelevant) that
 * this service defines, each once, in canonical order. Other values are ignored, not refused:
 * RFC 6749 section 3.3 lets the server grant less than asked, and OIDC Core 3.1.2.1 says values
 * that are not understood SHOULD be ignored (`read write` is `read`). Empty when none is defined.
 */
export function knownScopes(raw: string | undefined): OAuthScope[] {
  const names = raw === undefined ? [] : raw.split(' ');
  return OAUTH_SCOPES.filter((scope) => names.includes(scope));
}

/**
 * The scope a refresh asks for (RFC 6749 section 6) in canonical form, or null to keep the
 * grant's: values this service does not define are ignored as at the authorization endpoint, and
 * a parameter that names none of its scopes counts as omitted.
 */
export function refreshScope(raw: string | undefined): string | null {
  const scopes = knownScopes(raw);
  return scopes.length === 0 ? null : formatScope(scopes);
}

/** The canonical text of a scope list: known scopes, each once, in a fixed order. */
export function formatScope(scopes: readonly string[]): string {
  return OAUTH_SCOPES.filter((scope) => scopes.includes(scope)).join(' ');
}

export function splitScope(text: string | null): string[] {
  return text === null ? [] : text.split(' ').filter((name) => name !== '');
}

/** Whether every requested scope is among the granted ones. */
export function scopeCovers(granted: string | null, requested: string): boolean {
  if (granted === null) return false;
  const have = splitScope(granted);
  return splitScope(requested).every((scope) => have.includes(scope));
}

export function scopeUnion(a: string | null, b: string): string {
  return formatScope([...splitScope(a), ...splitScope(b)]);
}

export function scopeAllows(scope: string, anyOf: readonly OAuthScope[]): boolean {
  const have = splitScope(scope);
  return anyOf.some((name) => have.includes(name));
}
