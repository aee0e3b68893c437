-- LOOKUP in src/modules/keys/key-lookup.ts: the presented API key with its application (lookUpKey, prepared as api_key_lookup)
SELECT k.id, k.name, k.key_prefix, k.scopes, k.status, k.expires_at, k.last_used_at,
    k.created_at, k.key_hash, a.id AS app_id, a.name AS app_name, a.description AS app_description, a.home_url AS app_home_url, a.logo AS app_logo, a.enabled AS app_enabled, a.is_public AS app_is_public, a.rate_limit_per_minute AS app_rate_limit_per_minute, a.created_at AS app_created_at
  FROM api_keys k JOIN applications a ON a.id = k.application_id
  WHERE k.key_hash = $1
