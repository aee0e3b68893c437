-- FIND_CLIENT in src/modules/oauth/client-auth/authenticate-client.ts: the client a confidential token or revocation request names (authenticateClient)
SELECT id, client_id AS "clientId", client_auth_method AS "clientAuthMethod",
    client_secret_hash AS "clientSecretHash", jwks, jwks_uri AS "jwksUri", enabled,
    (dpop_bound_access_tokens OR security_profile IS NOT NULL) AS "dpopBoundAccessTokens",
    security_profile AS "securityProfile"
  FROM applications WHERE client_id = $1
