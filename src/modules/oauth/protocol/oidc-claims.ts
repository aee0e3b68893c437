import type { SessionAuthMethod } from '../../sessions/oauth-session.entity';
import { splitScope } from './scopes';

/** The claims `profile` releases that we hold (OIDC Core 5.4); the claims parameter maps to it. */
export const PROFILE_CLAIMS: readonly string[] = [
  'name',
  'preferred_username',
  'nickname',
  'picture',
  'updated_at',
];
/** The claims `email` releases (OIDC Core 5.4). */
export const EMAIL_CLAIMS: readonly string[] = ['email', 'email_verified'];

/**
 * The one Authentication Context Class we state (OIDC Core 2 `acr`): every sign-in we offer
 * (password, passkey, upstream provider) is at least this; the method itself is in `amr`.
 */
export const ACR_VALUE = '1';

/** RFC 8176 Authentication Method Reference values of each way a session signs in. */
export const AMR_OF: Readonly<Record<SessionAuthMethod, readonly string[]>> = {
  password: ['pwd'],
  // A passkey: a hardware-bound key with a user verification (WebAuthn).
  passkey: ['hwk', 'user'],
  upstream: ['fed'],
};

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

/**
 * The profile claims userinfo adds to standardClaims (OIDC Core 5.3.2): `updated_at` in seconds
 * (the users row's last update). `nickname` is already there as the contract's field. The id_token
 * keeps the claims it always carried (docs/oidc.md).
 */
export function userinfoProfileClaims(scope: string, updatedAt: Date): { updated_at?: number } {
  const scopes = splitScope(scope);
  if (!scopes.includes('profile') && !scopes.includes('read')) return {};
  return { updated_at: Math.floor(updatedAt.getTime() / 1000) };
}
