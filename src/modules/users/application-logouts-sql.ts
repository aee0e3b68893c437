// The users module's statement for the back-channel logouts an application is owed when it is
// made to forget a user (docs/oidc.md, "Back-channel logout"). It lives here, beside the
// revocation it runs with, because the sessions module sits above users (a session names its
// user) and so cannot be called from here; the tables it writes are the ones SessionService's
// endings write (sessions/session-logouts.ts).

/**
 * An application forced to forget a user (the owner's force offline, revoking its grant,
 * disabling the user there): the user's sessions stay, since they are the provider's and serve
 * every other application, but each session in which this application got an id_token owes it a
 * logout, queued here, and forgets the application, so the next sign-out sends it nothing more
 * unless it is authorized again. `$1` application, `$2` user, `$3` the time.
 */
export const QUEUE_APPLICATION_LOGOUTS_SQL = `WITH forgotten AS (
    DELETE FROM oauth_session_clients c USING oauth_sessions s
    WHERE c.sid = s.sid AND c.application_id = $1 AND s.user_id = $2
    RETURNING c.sid, c.issuer_path)
  INSERT INTO backchannel_logouts
    (application_id, sid, user_id, issuer_path, created_at, next_attempt_at)
  SELECT $1, forgotten.sid, $2, forgotten.issuer_path, $3, $3
  FROM forgotten JOIN applications a ON a.id = $1
  WHERE a.backchannel_logout_uri IS NOT NULL`;
