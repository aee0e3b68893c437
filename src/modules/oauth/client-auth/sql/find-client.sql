-- FIND_CLIENT in src/modules/oauth/client-auth/authenticate-client.ts: the client a confidential token or revocation request names (authenticateClient)
SELECT a.id, a.client_id AS "clientId", a.client_auth_method AS "clientAuthMethod",
    a.client_secret_hash AS "clientSecretHash", a.jwks, a.jwks_uri AS "jwksUri",
    a.enabled,
    (a.dpop_bound_access_tokens OR a.security_profile IS NOT NULL) AS "dpopBoundAccessTokens",
    a.security_profile AS "securityProfile",
    (a.device_code_grant AND a.security_profile IS NULL) AS "deviceCodeGrant"
  FROM applications a WHERE a.client_id = $1
