-- exchangeStatement('authenticated') in src/modules/oauth/token/grants/authorization-code-sql.ts: the code exchange of one code by a client already authenticated by its secret (redeemCode)
WITH cl AS (SELECT $3::int AS id),
   c AS (
     UPDATE oauth_codes SET consumed_at = $2
     WHERE code_hash = $1 AND consumed_at IS NULL AND EXISTS (SELECT 1 FROM cl)
     RETURNING id, application_id, user_id, redirect_uri, code_challenge, scope, expires_at),
   r AS (
     SELECT c.id, c.application_id, c.user_id, c.code_challenge, c.scope,
       au.enabled AS relation_enabled, au.granted_scope,
       COALESCE(c.application_id = cl.id, false) AS ok_code_client,
     COALESCE(c.expires_at > $2, false) AS ok_code_expiry,
     COALESCE(c.redirect_uri = $4, false) AS ok_code_redirect_uri,
     COALESCE(c.code_challenge IS NOT DISTINCT FROM $5::varchar, false) AS ok_pkce,
     COALESCE((au.enabled AND au.granted_scope IS NOT NULL), false) AS ok_relation,
       ((c.application_id = cl.id)
       AND (c.expires_at > $2)
       AND (c.redirect_uri = $4)
       AND (c.code_challenge IS NOT DISTINCT FROM $5::varchar)
       AND ((au.enabled AND au.granted_scope IS NOT NULL))) IS TRUE AS ok
     FROM c CROSS JOIN cl LEFT JOIN app_users au ON au.application_id = c.application_id AND au.user_id = c.user_id),
   issued AS (
     INSERT INTO oauth_tokens (application_id, user_id, access_token_hash, refresh_token_hash, scope,
      access_expires_at, refresh_expires_at, family_id, code_id, parent_id, generation, created_at,
      dpop_jkt, refresh_dpop_jkt)
    SELECT application_id, user_id, $6::varchar, $7::varchar, scope, $8::timestamptz, $9::timestamptz, $10::uuid, id, NULL, 0, $2, $11::varchar, $12::varchar FROM r WHERE ok
     RETURNING application_id, user_id, scope),
   event AS (
     INSERT INTO events (application_id, event_type, protocol, status, user_id, scope, description, created_at)
    SELECT application_id, 'token_issued', 'oauth2', 'success', user_id, scope, '', $2 FROM issued)
   SELECT r.*, EXISTS (SELECT 1 FROM issued) AS issued FROM r
