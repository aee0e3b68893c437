-- LOCK_STATEMENT in src/modules/oauth/token/grants/refresh-token-sql.ts: the step-by-step refresh (after the one statement changed nothing): the presented token locked, with every step outcome (lockRefreshToken)
WITH cl AS (SELECT $3::int AS id)
   SELECT t.id, t.application_id, t.user_id, t.scope, t.family_id, t.code_id, t.generation, au.enabled AS relation_enabled, au.granted_scope,
       COALESCE(t.application_id = cl.id, false) AS ok_refresh_client,
     COALESCE(t.refresh_dpop_jkt IS NULL OR t.refresh_dpop_jkt = $6, false) AS ok_refresh_dpop_key,
     COALESCE(t.revoked_at IS NULL, false) AS ok_refresh_not_revoked,
     COALESCE(t.rotated_at IS NULL OR t.rotated_at >= $5, false) AS ok_refresh_not_replayed,
     COALESCE(NOT EXISTS (SELECT 1 FROM oauth_tokens n
     WHERE n.family_id = t.family_id AND n.generation > t.generation
       AND (n.created_at < COALESCE($5::timestamptz, $2::timestamptz)
         OR (t.rotated_at IS NULL AND n.created_at > t.created_at + ($2::timestamptz - COALESCE($5::timestamptz, $2::timestamptz))))), false) AS ok_refresh_not_superseded,
     COALESCE(t.refresh_expires_at > $2, false) AS ok_refresh_expiry,
     COALESCE(($4::text IS NULL OR string_to_array($4::text, ' ') <@ string_to_array(t.scope, ' ')), false) AS ok_refresh_scope,
     COALESCE((au.enabled AND au.granted_scope IS NOT NULL), false) AS ok_relation FROM oauth_tokens t CROSS JOIN cl LEFT JOIN app_users au ON au.application_id = t.application_id AND au.user_id = t.user_id
     WHERE t.refresh_token_hash = $1 FOR UPDATE OF t
