-- LOOKUP.refresh in src/modules/oauth/token-management/introspection.service.ts: introspection (RFC 7662) of a presented refresh token of the calling application (prepared as oauth_introspect_refresh)
SELECT t.scope, t.user_id::text AS sub, u.username,
          t.created_at AS "issuedAt", t.refresh_expires_at AS "expiresAt"
   FROM oauth_tokens t
   JOIN users u ON u.id = t.user_id
   JOIN applications a ON a.id = t.application_id AND a.enabled
   JOIN app_users au ON au.application_id = t.application_id AND au.user_id = t.user_id AND (au.enabled AND au.granted_scope IS NOT NULL)
   WHERE t.refresh_token_hash = $1 AND t.revoked_at IS NULL AND t.rotated_at IS NULL
       AND t.refresh_expires_at > $3 AND NOT EXISTS (SELECT 1 FROM oauth_tokens n
     WHERE n.family_id = t.family_id AND n.generation > t.generation
       AND (n.created_at < COALESCE($3::timestamptz, $3::timestamptz)
         OR (t.rotated_at IS NULL AND n.created_at > t.created_at + ($3::timestamptz - COALESCE($3::timestamptz, $3::timestamptz))))) AND t.application_id = $2
