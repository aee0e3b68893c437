/**
 * The JWS algorithms the provider signs id_tokens with (docs/oidc.md, "Signing keys"), in the
 * order discovery lists them: RS256 first, the default of a client that names none (OIDC
 * Dynamic Client Registration 1.0 section 2, `id_token_signed_response_alg`). PS256, ES256 and
 * EdDSA (Ed25519) are the ones the FAPI 2.0 Security Profile (section 5.4) allows. Asymmetric
 * only: never `none`, never an HMAC. Shared by the keys (`signing-keys`) and the clients'
 * setting (`applications`), which import nothing of each other.
 */
export const ID_TOKEN_SIGNING_ALGS = ['RS256', 'PS256', 'ES256', 'EdDSA'] as const;
export type IdTokenSigningAlg = (typeof ID_TOKEN_SIGNING_ALGS)[number];

/** The alg of a client without `id_token_signed_response_alg`, and of every key before there were others. */
export const DEFAULT_ID_TOKEN_SIGNING_ALG: IdTokenSigningAlg = 'RS256';

export function isIdTokenSigningAlg(value: unknown): value is IdTokenSigningAlg {
  return (ID_TOKEN_SIGNING_ALGS as readonly unknown[]).includes(value);
}
