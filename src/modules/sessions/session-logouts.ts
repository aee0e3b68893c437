import { randomBytes } from 'node:crypto';

// The statements that end sessions and, in the same statement, queue the back-channel logouts
// they owe (docs/oidc.md, "Back-channel logout"). Every way a session ends goes through
// SessionService, which runs these, so no path can end a session and forget its logouts; the
// delivery engine (oauth/backchannel-logout) sends what they queue once the ending commits.

/** A new session's `sid`: 128 random bits, base64url, unrelated to the cookie. */
export function newSid(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * One logout per client of the ended sessions that has a logout URI: the clients a session
 * authorized with `openid` (oauth_session_clients, whose rows go with the session through their
 * foreign key; this statement still reads them, from its snapshot). `$1` is the time.
 */
const QUEUE_ENDED = `INSERT INTO backchannel_logouts
    (application_id, sid, user_id, issuer_path, created_at, next_attempt_at)
  SELECT c.application_id, ended.sid, ended.user_id, c.issuer_path, $1, $1
  FROM ended JOIN oauth_session_clients c ON c.sid = ended.sid
  JOIN applications a ON a.id = c.application_id
  WHERE a.backchannel_logout_uri IS NOT NULL`;

/**
 * Deletes the sessions `where` selects (its parameters from `$2`) and queues their logouts, in
 * one statement; answers `[{ ended }]`, how many sessions ended.
 */
export function endSessionsSql(where: string): string {
  return `WITH ended AS (DELETE FROM oauth_sessions WHERE ${where} RETURNING sid, user_id),
  queued AS (${QUEUE_ENDED} RETURNING 1)
  SELECT count(*)::int AS ended FROM ended`;
}
