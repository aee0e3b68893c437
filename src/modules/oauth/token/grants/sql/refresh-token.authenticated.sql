-- rotateStatement('authenticated') in src/modules/oauth/token/grants/refresh-token-sql.ts: the rotation of one refresh token by a client already authenticated by its secret (rotateRefreshToken)
WITH cl AS (SELECT $3::int AS id),
   t AS (
     UPDATE oauth_tokens t SET rotated_at = COALESCE(t.rotated_at, $2)
     FROM cl, app_users au
     WHERE t.refresh_token_hash = $1 AND au.application_id = t.application_id AND au.user_id = t.user_id
       AND (t.application_id = cl.id)
       AND (t.refresh_dpop_jkt IS NULL OR t.refresh_dpop_jkt = $6)
       AND (t.revoked_at IS NULL)
       AND (t.rotated_at IS NULL OR t.rotated_at >= $5)
       AND (NOT EXISTS (SELECT 1 FROM oauth_tokens n
     WHERE n.family_id = t.family_id AND n.generation > t.generation
       AND (n.created_at < COALESCE($5::timestamptz, $2::timestamptz)
         OR (t.rotated_at IS NULL AND n.created_at > t.created_at + ($2::timestamptz - COALESCE($5::timestamptz, $2::timestamptz))))))
       AND (t.refresh_expires_at > $2)
       AND (($4::text IS NULL OR string_to_array($4::text, ' ') <@ string_to_array(t.scope, ' ')))
       AND ((au.enabled AND au.granted_scope IS NOT NULL))
     RETURNING t.id, t.application_id, t.user_id, COALESCE($4::text, t.scope) AS scope, t.family_id, t.code_id, t.generation),
   issued AS (
     INSERT INTO oauth_tokens (application_id, user_id, access_token_hash, refresh_token_hash, scope,
      access_expires_at, refresh_expires_at, family_id, code_id, parent_id, generation, created_at,
      dpop_jkt, refresh_dpop_jkt)
    SELECT application_id, user_id, $7::varchar, $8::varchar, scope, $9::timestamptz, $10::timestamptz, family_id, code_id, id, generation + 1, $2, $6::varchar, $11::varchar FROM t),
   event AS (
     INSERT INTO events (application_id, event_type, protocol, status, user_id, scope, description, created_at)
    SELECT application_id, 'token_refreshed', 'oauth2', 'success', user_id, scope, '', $2 FROM t)
   SELECT scope, user_id, application_id, code_id FROM t
