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

import { CLIENT_ASSERTION_ALGS } from '../../applications/client-jwks';
import { ID_TOKEN_SIGNING_ALGS } from '../../../common/crypto/signing-algs';

/**
 * OIDC Discovery 1.0 section 3: the algs of id_tokens, RS256 first (the default of a client that
 * names none); each client gets its own `id_token_signed_response_alg` (docs/oidc.md).
 */
export const ID_TOKEN_ALGS = ID_TOKEN_SIGNING_ALGS;

/** The token endpoint's grant types (token/token.service.ts), RFC 8628's by its URN. */
export const GRANT_TYPES_SUPPORTED = [
  'authorization_code',
  'refresh_token',
  'urn:ietf:params:oauth:grant-type:device_code',
] as const;

/** Every client authentication method of the token endpoint (client-auth/). */
export const TOKEN_AUTH_METHODS = [
  'client_secret_basic',
  'client_secret_post',
  'private_key_jwt',
  'none',
] as const;
/** RFC 7009 section 5: public clients may revoke their own tokens (by client_id). */
export const REVOCATION_AUTH_METHODS = TOKEN_AUTH_METHODS;
/** RFC 7662 section 2.1: introspection needs an authenticated (`secret` or keyed) client. */
export const INTROSPECTION_AUTH_METHODS = [
  'client_secret_basic',
  'client_secret_post',
  'private_key_jwt',
] as const;
/**
 * RFC 8414 section 2: the algorithms of private_key_jwt assertions, at each endpoint alike
 * (never `none` or HMAC: applications/client-jwks.ts).
 */
export const AUTH_SIGNING_ALGS = CLIENT_ASSERTION_ALGS;
