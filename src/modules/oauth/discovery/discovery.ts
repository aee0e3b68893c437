import { ACR_VALUE } from '../protocol/oidc-claims';
import { SUPPORTED_LOCALES } from '../../../common/i18n/i18n';
import { issuerUrl, type IssuerPath } from '../../signing-keys/issuers';
import { OAUTH_SCOPES } from '../protocol/scopes';
import { INTERACTIVE_PROMPTS } from '../authorize/checks/check-prompt';
import { DPOP_SIGNING_ALGS } from '../dpop/dpop-proof';
import type { ProviderMetadata } from './metadata.openapi';
import {
  AUTH_SIGNING_ALGS,
  CLAIMS_SUPPORTED,
  GRANT_TYPES_SUPPORTED,
  ID_TOKEN_ALGS,
  INTROSPECTION_AUTH_METHODS,
  REVOCATION_AUTH_METHODS,
  TOKEN_AUTH_METHODS,
} from './supported-values';

/**
 * The one metadata document, served both as OpenID Provider Metadata (OIDC Discovery 1.0
 * section 3) and as RFC 8414 authorization server metadata, so the two never disagree. RFC 8414
 * section 2 admits the OpenID fields, which are registered in its IANA registry. A feature that
 * adds an endpoint adds its field here.
 *
 * Under the alias issuer (`${base}/api/oidc`, signing-keys/issuers.ts) the document names that
 * issuer and its endpoints under /api/oidc (the original service's paths), so that an
 * authorization started there is answered as that issuer; revocation and introspection have no
 * alias and stay where they are (docs/oidc.md, "Two issuers").
 */
export function providerMetadata(
  base: string,
  issuerPath: IssuerPath | null = null,
  requirePushedAuthorizationRequests = false,
): ProviderMetadata {
  const alias = issuerPath === null ? null : issuerUrl(base, issuerPath);
  return {
    issuer: alias ?? base,
    authorization_endpoint: alias === null ? `${base}/oauth2/authorize` : `${alias}/auth`,
    token_endpoint: alias === null ? `${base}/api/oauth2/token` : `${alias}/token`,
    userinfo_endpoint: alias === null ? `${base}/api/oauth2/userinfo` : `${alias}/userinfo`,
    jwks_uri: alias === null ? `${base}/api/oidc/jwks` : `${alias}/.well-known/jwks.json`,
    // OpenID Connect RP-Initiated Logout 1.0 section 2.1.
    end_session_endpoint: alias === null ? `${base}/oauth2/logout` : `${alias}/logout`,
    // OpenID Connect Back-Channel Logout 1.0 section 2.1 (docs/oidc.md, "Back-channel logout").
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
    scopes_supported: [...OAUTH_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: [...GRANT_TYPES_SUPPORTED],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: [...ID_TOKEN_ALGS],
    token_endpoint_auth_methods_supported: [...TOKEN_AUTH_METHODS],
    token_endpoint_auth_signing_alg_values_supported: [...AUTH_SIGNING_ALGS],
    revocation_endpoint: `${base}/api/oauth2/revoke`,
    revocation_endpoint_auth_methods_supported: [...REVOCATION_AUTH_METHODS],
    revocation_endpoint_auth_signing_alg_values_supported: [...AUTH_SIGNING_ALGS],
    introspection_endpoint: `${base}/api/oauth2/introspect`,
    introspection_endpoint_auth_methods_supported: [...INTROSPECTION_AUTH_METHODS],
    introspection_endpoint_auth_signing_alg_values_supported: [...AUTH_SIGNING_ALGS],
    code_challenge_methods_supported: ['S256'],
    claims_supported: [...CLAIMS_SUPPORTED],
    prompt_values_supported: ['none', ...INTERACTIVE_PROMPTS],
    acr_values_supported: [ACR_VALUE],
    authorization_response_iss_parameter_supported: true,
    // OIDC Discovery 1.0 section 3: request_uri_parameter_supported defaults to true, so the
    // unsupported request objects are stated explicitly (OIDC Core 6.1: request_not_supported).
    // It stays false with pushed authorization requests: the OIDC field is about request objects
    // fetched from a client's URL (OIDC Core 6.2), which are still not fetched; the request_uri
    // of RFC 9126 is announced by pushed_authorization_request_endpoint (RFC 9126 section 5).
    request_parameter_supported: false,
    request_uri_parameter_supported: false,
    claims_parameter_supported: true,
    // The languages of the pages, for ui_locales (docs/languages.md).
    ui_locales_supported: [...SUPPORTED_LOCALES],
    // RFC 9126 section 5; the alias issuer's under its own path, like its other endpoints.
    pushed_authorization_request_endpoint: alias === null ? `${base}/oauth2/par` : `${alias}/par`,
    // REQUIRE_PUSHED_AUTHORIZATION_REQUESTS; a client may require it of itself alone.
    require_pushed_authorization_requests: requirePushedAuthorizationRequests,
    // RFC 8628 section 4; the alias issuer's under its own path, like PAR's.
    device_authorization_endpoint:
      alias === null ? `${base}/oauth2/device_authorization` : `${alias}/device_authorization`,
    // RFC 9449 section 5.1: the algorithms of DPoP proofs at every endpoint that takes them.
    dpop_signing_alg_values_supported: [...DPOP_SIGNING_ALGS],
  };
}
