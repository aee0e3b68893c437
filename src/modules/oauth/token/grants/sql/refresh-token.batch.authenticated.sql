-- rotateBatchStatement('authenticated') in src/modules/oauth/token/grants/refresh-token-sql.ts: the rotation of a batch of refresh tokens by a client already authenticated by its secret, one array parameter per input whatever the batch size (rotateRefreshTokens)
WITH i AS MATERIALIZED (
     SELECT i.*, t.id AS token_id, ((t.application_id = cl.id)
       AND (t.refresh_dpop_jkt IS NULL OR t.refresh_dpop_jkt = i.in_jkt)
       AND (t.revoked_at IS NULL)
       AND (t.rotated_at IS NULL OR t.rotated_at >= i.in_reuse_since)
       AND (NOT EXISTS (SELECT 1 FROM oauth_tokens n
     WHERE n.family_id = t.family_id AND n.generation > t.generation
       AND (n.created_at < COALESCE(i.in_reuse_since::timestamptz, i.in_now::timestamptz)
         OR (t.rotated_at IS NULL AND n.created_at > t.created_at + (i.in_now::timestamptz - COALESCE(i.in_reuse_since::timestamptz, i.in_now::timestamptz))))))
       AND (t.refresh_expires_at > i.in_now)
       AND ((i.in_scope::text IS NULL OR string_to_array(i.in_scope::text, ' ') <@ string_to_array(t.scope, ' ')))
       AND ((au.enabled AND au.granted_scope IS NOT NULL))) IS TRUE AS ok FROM oauth_tokens t JOIN unnest((SELECT $1::text[]), (SELECT $2::timestamptz[]), (SELECT $3::text[]), (SELECT $4::text[]), (SELECT $5::timestamptz[]), (SELECT $6::text[]), (SELECT $7::text[]), (SELECT $8::text[]), (SELECT $9::timestamptz[]), (SELECT $10::timestamptz[]), (SELECT $11::text[])) WITH ORDINALITY AS i(in_refresh_hash, in_now, in_client, in_scope, in_reuse_since, in_jkt, in_access_hash, in_new_refresh_hash, in_access_expires_at, in_refresh_expires_at, in_refresh_jkt, ord) ON t.refresh_token_hash = i.in_refresh_hash
       CROSS JOIN LATERAL (SELECT i.in_client::int AS id) cl
       LEFT JOIN app_users au ON au.application_id = t.application_id AND au.user_id = t.user_id
     WHERE t.refresh_token_hash = i.in_refresh_hash FOR UPDATE OF t),
   t AS (
     UPDATE oauth_tokens t SET rotated_at = COALESCE(t.rotated_at, i.in_now)
     FROM i
     WHERE t.refresh_token_hash = i.in_refresh_hash AND t.id = i.token_id AND i.ok
     RETURNING i.ord, t.id, t.application_id, t.user_id, COALESCE(i.in_scope::text, t.scope) AS scope, t.family_id, t.code_id, t.generation),
   issued AS (
     INSERT INTO oauth_tokens (application_id, user_id, access_token_hash, refresh_token_hash, scope,
      access_expires_at, refresh_expires_at, family_id, code_id, parent_id, generation, created_at,
      dpop_jkt, refresh_dpop_jkt)
    SELECT application_id, user_id, i.in_access_hash::varchar, i.in_new_refresh_hash::varchar, scope, i.in_access_expires_at::timestamptz, i.in_refresh_expires_at::timestamptz, family_id, code_id, id, generation + 1, i.in_now, i.in_jkt::varchar, i.in_refresh_jkt::varchar FROM t JOIN i ON i.ord = t.ord),
   event AS (
     INSERT INTO events (application_id, event_type, protocol, status, user_id, scope, description, created_at)
    SELECT application_id, 'token_refreshed', 'oauth2', 'success', user_id, scope, '', i.in_now FROM t JOIN i ON i.ord = t.ord)
   SELECT ord, scope, user_id, application_id, code_id FROM t
