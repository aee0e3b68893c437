-- OWNER in src/modules/oauth/userinfo/userinfo.service.ts: /user/emails: the owner of one access token (prepared as userinfo-owner)
SELECT t.scope, u.id, u.username, u.nickname, u.email, u.avatar, u.email_verified, u.updated_at,
     au."group", t.dpop_jkt
   FROM oauth_tokens t
   JOIN users u ON u.id = t.user_id
   JOIN applications a ON a.id = t.application_id AND a.enabled
   JOIN app_users au ON au.application_id = t.application_id AND au.user_id = t.user_id AND (au.enabled AND au.granted_scope IS NOT NULL)
   
   WHERE t.access_token_hash = $1 AND t.revoked_at IS NULL AND t.access_expires_at > $2
