-- LOOKUP.access in src/modules/oauth/token-management/introspection.service.ts: introspection (RFC 7662) of a presented access token of the calling application (prepared as oauth_introspect_access)
SELECT t.scope, t.user_id::text AS sub, u.username,
          t.created_at AS "issuedAt", t.access_expires_at AS "expiresAt"
   FROM oauth_tokens t
   JOIN users u ON u.id = t.user_id
   JOIN applications a ON a.id = t.application_id AND a.enabled
   JOIN app_users au ON au.application_id = t.application_id AND au.user_id = t.user_id AND (au.enabled AND au.granted_scope IS NOT NULL)
   WHERE t.access_token_hash = $1 AND t.revoked_at IS NULL AND t.access_expires_at > $3 AND t.application_id = $2
