-- INTROSPECTION_BATCH in src/modules/oauth/token-management/introspection-sql.ts: introspection for a batch of requests, one array parameter per input whatever the batch size (prepared as oauth_introspect_batch)
SELECT c.id, c.client_id AS "clientId", c.client_auth_method AS "clientAuthMethod",
    c.client_secret_hash AS "clientSecretHash", c.jwks, c.jwks_uri AS "jwksUri",
    c.enabled,
    (c.dpop_bound_access_tokens OR c.security_profile IS NOT NULL) AS "dpopBoundAccessTokens",
    c.security_profile AS "securityProfile",
    (c.device_code_grant AND c.security_profile IS NULL) AS "deviceCodeGrant", i.ord,
     CASE WHEN access_row.application_id = c.id THEN to_jsonb(access_row) END AS access_token, CASE WHEN refresh_row.application_id = c.id THEN to_jsonb(refresh_row) END AS refresh_token
   FROM unnest((SELECT $1::varchar[]), (SELECT $2::varchar[]), (SELECT $3::timestamptz[])) WITH ORDINALITY AS i(in_client_id, in_token_hash, in_now, ord) CROSS JOIN applications c
   LEFT JOIN LATERAL (
     SELECT t.application_id, t.scope, t.user_id::text AS sub, u.username,
       floor(extract(epoch FROM t.created_at))::bigint AS iat,
       floor(extract(epoch FROM t.access_expires_at))::bigint AS exp,
       t.dpop_jkt AS jkt
     FROM oauth_tokens t
     JOIN users u ON u.id = t.user_id
     JOIN applications a ON a.id = t.application_id AND a.enabled
     JOIN app_users au ON au.application_id = t.application_id AND au.user_id = t.user_id AND (au.enabled AND au.granted_scope IS NOT NULL)
     WHERE t.access_token_hash = i.in_token_hash AND t.revoked_at IS NULL AND t.access_expires_at > i.in_now
     LIMIT 1
   ) access_row ON true
   LEFT JOIN LATERAL (
     SELECT t.application_id, t.scope, t.user_id::text AS sub, u.username,
       floor(extract(epoch FROM t.created_at))::bigint AS iat,
       floor(extract(epoch FROM t.refresh_expires_at))::bigint AS exp,
       NULL AS jkt
     FROM oauth_tokens t
     JOIN users u ON u.id = t.user_id
     JOIN applications a ON a.id = t.application_id AND a.enabled
     JOIN app_users au ON au.application_id = t.application_id AND au.user_id = t.user_id AND (au.enabled AND au.granted_scope IS NOT NULL)
     WHERE t.refresh_token_hash = i.in_token_hash AND t.revoked_at IS NULL AND t.rotated_at IS NULL
       AND t.refresh_expires_at > i.in_now AND NOT EXISTS (SELECT 1 FROM oauth_tokens n
     WHERE n.family_id = t.family_id AND n.generation > t.generation
       AND (n.created_at < COALESCE(i.in_now::timestamptz, i.in_now::timestamptz)
         OR (t.rotated_at IS NULL AND n.created_at > t.created_at + (i.in_now::timestamptz - COALESCE(i.in_now::timestamptz, i.in_now::timestamptz)))))
       AND access_row.sub IS NULL
     LIMIT 1
   ) refresh_row ON true
   WHERE c.client_id = i.in_client_id
