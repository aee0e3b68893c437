-- USERINFO in src/modules/oauth/userinfo/userinfo.service.ts: userinfo: the owner of one access token with its upstream identities (prepared as userinfo-owner-upstreams)
SELECT t.scope, u.id, u.username, u.nickname, u.email, u.avatar, u.email_verified, u.updated_at,
     au."group", t.dpop_jkt, up.upstreams
   FROM oauth_tokens t
   JOIN users u ON u.id = t.user_id
   JOIN applications a ON a.id = t.application_id AND a.enabled
   JOIN app_users au ON au.application_id = t.application_id AND au.user_id = t.user_id AND (au.enabled AND au.granted_scope IS NOT NULL)
   LEFT JOIN LATERAL (
     SELECT json_agg(json_build_object('id', up_i.id, 'providerId', up_i.provider_id,
         'subject', up_i.subject, 'profile', up_i.profile,
         'providerName', (SELECT upstream_provider.display_name FROM upstream_providers upstream_provider
     WHERE upstream_provider.id = up_i.provider_id)) ORDER BY up_i.id) AS upstreams
       FROM upstream_identities up_i
      WHERE up_i.user_id = t.user_id) up ON true
   WHERE t.access_token_hash = $1 AND t.revoked_at IS NULL AND t.access_expires_at > $2
