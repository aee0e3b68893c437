-- exchangeBatchStatement('public') in src/modules/oauth/token/grants/authorization-code-sql.ts: the code exchange of a batch of codes by a public client, checked by the statement (`none`, enabled), one array parameter per input whatever the batch size (redeemCodes)
WITH i AS (SELECT * FROM unnest((SELECT $1::text[]), (SELECT $2::timestamptz[]), (SELECT $3::text[]), (SELECT $4::text[]), (SELECT $5::text[]), (SELECT $6::text[]), (SELECT $7::text[]), (SELECT $8::timestamptz[]), (SELECT $9::timestamptz[]), (SELECT $10::uuid[]), (SELECT $11::text[]), (SELECT $12::text[])) WITH ORDINALITY AS i(in_code_hash, in_now, in_client, in_redirect_uri, in_verifier_hash, in_access_hash, in_refresh_hash, in_access_expires_at, in_refresh_expires_at, in_family_id, in_jkt, in_refresh_jkt, ord)),
   c AS (
     UPDATE oauth_codes oc SET consumed_at = i.in_now
     FROM i
     WHERE oc.code_hash = i.in_code_hash AND oc.consumed_at IS NULL AND EXISTS (SELECT id FROM applications
    WHERE client_id = i.in_client::varchar AND client_auth_method = 'none' AND enabled
      AND (i.in_jkt::text IS NOT NULL OR NOT dpop_bound_access_tokens))
     RETURNING i.ord, oc.id, oc.application_id, oc.user_id, oc.redirect_uri, oc.code_challenge,
       oc.scope, oc.expires_at),
   r AS (
     SELECT c.ord, c.id, c.application_id, c.user_id, c.code_challenge, c.scope,
       au.enabled AS relation_enabled, au.granted_scope,
       COALESCE(c.application_id = cl.id, false) AS ok_code_client,
     COALESCE(c.expires_at > i.in_now, false) AS ok_code_expiry,
     COALESCE(c.redirect_uri = i.in_redirect_uri, false) AS ok_code_redirect_uri,
     COALESCE(c.code_challenge IS NOT DISTINCT FROM i.in_verifier_hash::varchar, false) AS ok_pkce,
     COALESCE((au.enabled AND au.granted_scope IS NOT NULL), false) AS ok_relation,
       ((c.application_id = cl.id)
       AND (c.expires_at > i.in_now)
       AND (c.redirect_uri = i.in_redirect_uri)
       AND (c.code_challenge IS NOT DISTINCT FROM i.in_verifier_hash::varchar)
       AND ((au.enabled AND au.granted_scope IS NOT NULL))) IS TRUE AS ok
     FROM c JOIN i ON i.ord = c.ord CROSS JOIN LATERAL (SELECT id FROM applications
    WHERE client_id = i.in_client::varchar AND client_auth_method = 'none' AND enabled
      AND (i.in_jkt::text IS NOT NULL OR NOT dpop_bound_access_tokens)) cl
       LEFT JOIN app_users au ON au.application_id = c.application_id AND au.user_id = c.user_id),
   issued AS (
     INSERT INTO oauth_tokens (application_id, user_id, access_token_hash, refresh_token_hash, scope,
      access_expires_at, refresh_expires_at, family_id, code_id, parent_id, generation, created_at,
      dpop_jkt, refresh_dpop_jkt)
    SELECT application_id, user_id, i.in_access_hash::varchar, i.in_refresh_hash::varchar, scope, i.in_access_expires_at::timestamptz, i.in_refresh_expires_at::timestamptz, i.in_family_id::uuid, id, NULL, 0, i.in_now, i.in_jkt::varchar, i.in_refresh_jkt::varchar FROM r JOIN i ON i.ord = r.ord WHERE r.ok),
   event AS (
     INSERT INTO events (application_id, event_type, protocol, status, user_id, scope, description, created_at)
    SELECT application_id, 'token_issued', 'oauth2', 'success', user_id, scope, '', i.in_now FROM r JOIN i ON i.ord = r.ord WHERE r.ok)
   SELECT r.*, r.ok AS issued FROM r
