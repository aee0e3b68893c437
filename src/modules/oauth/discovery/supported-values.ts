// Lists the metadata document states (discovery.ts) and its OpenAPI schema enumerates
// (metadata.openapi.ts): one definition for both.

/** The claims an id_token or userinfo response may carry (docs/oidc.md, "Claims"). */
export const CLAIMS_SUPPORTED = [
  'iss',
  'sub',
  'aud',
  'exp',
  'iat',
  'auth_time',
  'nonce',
  'at_hash',
  'acr',
  'amr',
  'name',
  'preferred_username',
  'nickname',
  'picture',
  'updated_at',
  'email',
  'email_verified',
] as const;

/** RFC 7009 section 5: public clients may revoke their own tokens (by client_id). */
export const REVOCATION_AUTH_METHODS = [
  'client_secret_basic',
  'client_secret_post',
  'none',
] as const;
/** RFC 7662 section 2.1: introspection needs an authenticated (`secret`) client. */
export const INTROSPECTION_AUTH_METHODS = ['client_secret_basic', 'client_secret_post'] as const;
