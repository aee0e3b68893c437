import { randomUUID } from 'node:crypto';

/** The event a logout token carries (OpenID Connect Back-Channel Logout 1.0 section 2.4). */
export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** The JWS `typ` of logout tokens (section 2.4): never taken for an id_token, nor the reverse. */
export const LOGOUT_TOKEN_TYPE = 'logout+jwt';

/** A logout token is good for this long after it is signed: a replay later is refused. */
export const LOGOUT_TOKEN_TTL_SECONDS = 120;

/** Whom a logout token is about: the client, the user and their session, and the issuer. */
export interface LogoutSubject {
  issuer: string;
  clientId: string;
  userId: string;
  sid: string;
}

/**
 * The claims of one logout token (section 2.4): `iss`, `aud` (the client alone), `iat`, `exp`,
 * a fresh `jti`, `sub` and `sid` (both: every client learns the session, whether or not it
 * registered `backchannel_logout_session_required`), the `events` member, and never a `nonce`.
 * A new token is signed for every attempt, so a token seen once is never sent again.
 */
export function logoutTokenClaims(subject: LogoutSubject, now: Date): Record<string, unknown> {
  const iat = Math.floor(now.getTime() / 1000);
  return {
    iss: subject.issuer,
    aud: subject.clientId,
    iat,
    exp: iat + LOGOUT_TOKEN_TTL_SECONDS,
    jti: randomUUID(),
    sub: subject.userId,
    sid: subject.sid,
    events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
  };
}
