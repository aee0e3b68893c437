import { splitScope } from './scopes';

/** The user fields the standard claims come from (table users). */
export interface ClaimSource {
  username: string;
  nickname: string;
  avatar: string;
  email: string;
  email_verified: boolean;
}

/** OpenID Connect standard claims (OIDC Core 5.1) that a scope set releases. */
export interface StandardClaims {
  name?: string;
  preferred_username?: string;
  picture?: string;
  email?: string;
  email_verified?: boolean;
}

/** Whether a (canonical) scope text is an OpenID Connect grant (OIDC Core 3.1.2.1). */
export function isOpenId(scope: string): boolean {
  return splitScope(scope).includes('openid');
}

/**
 * The claims a scope set releases (OIDC Core 5.4): `profile` (or `read`, which covers the
 * profile) → name, preferred_username, picture; `email` (or `read`) → email, email_verified.
 * Empty values are omitted rather than sent as "" (OIDC Core 5.3.2).
 */
export function standardClaims(scope: string, user: ClaimSource): StandardClaims {
  const scopes = splitScope(scope);
  const profile = scopes.includes('profile') || scopes.includes('read');
  const email = scopes.includes('email') || scopes.includes('read');
  return {
    ...(profile && {
      name: user.nickname !== '' ? user.nickname : user.username,
      preferred_username: user.username,
      ...(user.avatar !== '' && { picture: user.avatar }),
    }),
    ...(email && user.email !== '' && { email: user.email, email_verified: user.email_verified }),
  };
}
