-- SPEND_ASSERTION_JTI in src/modules/oauth/client-auth/assertion-jtis.ts: the single use of a client assertion id (private_key_jwt; spendAssertionJti)
INSERT INTO oauth_client_assertion_jtis (id, expires_at) VALUES ($1, $2)
  ON CONFLICT (id) DO UPDATE SET expires_at = EXCLUDED.expires_at
    WHERE oauth_client_assertion_jtis.expires_at < $3
  RETURNING 1 AS spent
